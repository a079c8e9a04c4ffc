import { describe, expect, it } from 'vitest';
import { simulatePacket, simulatePackets } from '../../../src-worker/simulate/simulate';
import { ChunkBuilder } from '../../../src-worker/formats/chunk-builder';
import { newSimulationStats, type SimulationContext, type SimulationMode } from '../../../src-worker/simulate/types';
import { CHUNK_ARRAY_FIELDS, type PacketChunk } from '../../../src-common/packets';
import { ElementKind } from '../../../src-worker/scene/scene-query';
import { constantVelocityTrajectory } from '../../../src-worker/geometry/trajectory';
import { concatenated } from '../../../src-worker/arrays/typed-arrays';
import { dirAt, elementScene, fixedRays, makeProfile, planeScene } from './helpers';

const dirs = Array.from({ length: 32 }, (_, i) => dirAt((i - 16) * 0.02, (i % 4 - 2) * 0.05));
const timeOffsets = dirs.map((_, i) => i * 2e-5);

function context(mode: SimulationMode, seed = 99): SimulationContext {
  const scene = mode === 'mesh' || mode === 'physics'
    ? planeScene([{ n: [1, 0, 0], c: 10, reflectance: 0.4, where: (_x, y) => y > 0 }, { n: [1, 0, 0], c: 11, reflectance: 0.6 }])
    : elementScene([
      { kind: mode === 'voxel' ? ElementKind.Voxel : ElementKind.Ellipsoid, mean: [8, 0, 0], cov: [0.09, 0, 0, 0, 0.09, 0, 0, 0, 0.09], pHit: 0.5, objectId: 1 },
      { kind: ElementKind.Ground, n: [0, 0, 1], c: -1.2, pHit: 0.9, variance: 1e-4, objectId: 2 },
    ]);
  return {
    scene,
    profile: makeProfile({ range: { noiseSigma: 0.01 }, returns: { mode: 'strongest+last', signalCutoff: 0.5 } }),
    rays: fixedRays(dirs, { timeOffsets, period: 1e-3 }),
    trajectory: constantVelocityTrajectory([0, 0, 0, 0, 0, 0, 1], [5, 0.5, 0], 0, 1),
    seed,
    mode,
  };
}

function bytes(chunks: PacketChunk[], field: (typeof CHUNK_ARRAY_FIELDS)[number]): Uint8Array {
  const parts = chunks.map((c) => {
    const a = c[field];
    if (field === 'rayStart') {
      const base = a[0]!; // re-base each chunk's offsets
      return new Uint8Array(Uint32Array.from(a.subarray(0, a.length - 1), (v) => v - base + 0).buffer);
    }
    return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  });
  return concatenated(Uint8Array, parts);
}

describe('determinism', () => {
  for (const mode of ['mesh', 'physics', 'hybrid', 'voxel'] as const) {
    it(`${mode}: packets [0, 100) in one call equal [0, 50) + [50, 100) bit for bit`, () => {
      const whole = simulatePackets(context(mode), 0, 100);
      const a = simulatePackets(context(mode), 0, 50);
      const b = simulatePackets(context(mode), 50, 50);
      expect(a.packetCount + b.packetCount).toBe(100);
      expect(whole.rayCount).toBe(a.rayCount + b.rayCount);
      for (const f of CHUNK_ARRAY_FIELDS) {
        if (f === 'rayStart') continue;
        expect(Buffer.from(bytes([whole], f)).equals(Buffer.from(bytes([a, b], f))), f).toBe(true);
      }
      // offsets agree once re-based
      for (let p = 0; p < 50; p++) {
        expect(whole.rayStart[50 + p]! - whole.rayStart[50]!).toBe(b.rayStart[p]!);
      }
      // and a different seed gives different output
      const other = simulatePackets(context(mode, 100), 0, 100);
      expect(Buffer.from(bytes([whole], 'rayRange')).equals(Buffer.from(bytes([other], 'rayRange')))).toBe(false);
    });
  }

  it('simulatePacket one by one equals simulatePackets, and refuses an out-of-order packet', () => {
    const ctx = context('physics');
    const builder = new ChunkBuilder(10, 1, 1); // tiny capacities: exercises growth
    for (let p = 10; p < 30; p++) simulatePacket(ctx, p, builder);
    const one = builder.finish();
    const all = simulatePackets(context('physics'), 10, 20);
    for (const f of CHUNK_ARRAY_FIELDS) expect(Buffer.from(bytes([one], f)).equals(Buffer.from(bytes([all], f))), f).toBe(true);
    expect(() => simulatePacket(ctx, 5, new ChunkBuilder(4))).toThrow(/expecting packet 4/);
  });
});

describe('bad input', () => {
  it('skips and counts rays with NaN (or zero-length) directions', () => {
    const ctx: SimulationContext = {
      scene: planeScene([{ n: [1, 0, 0], c: 10 }]),
      profile: makeProfile(),
      rays: fixedRays([dirAt(0), [NaN, 0, 0], dirAt(0.1), [0, 0, 0], [1, NaN, 0]]),
      trajectory: constantVelocityTrajectory([0, 0, 0, 0, 0, 0, 1], [0, 0, 0], 0, 1),
      seed: 0,
      mode: 'mesh',
    };
    const stats = newSimulationStats();
    const c = simulatePackets(ctx, 0, 3, stats);
    expect(stats).toEqual({ rays: 6, hits: 6, misses: 0, skippedNaN: 9 });
    expect(c.rayCount).toBe(6);
    expect(Array.from(c.rayRing)).toEqual([0, 2, 0, 2, 0, 2]);
  });

  it('rejects an impossible range window and negative noise', () => {
    const base = { scene: planeScene([]), rays: fixedRays([dirAt(0)]), trajectory: constantVelocityTrajectory([0, 0, 0, 0, 0, 0, 1], [0, 0, 0], 0, 1), seed: 0, mode: 'mesh' as const };
    expect(() => simulatePackets({ ...base, profile: makeProfile({ range: { min: 5, max: 2 } }) }, 0, 1)).toThrow(/must exceed min/);
    expect(() => simulatePackets({ ...base, profile: makeProfile(), options: { noiseSigma: -1 } }, 0, 1)).toThrow(/σ must be/);
  });
});
