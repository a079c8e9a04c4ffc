import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { POSE_STRIDE, RING_UNKNOWN, type PacketChunk } from '../../../src-common/packets';

/** A fresh temp folder and its cleanup. */
export function tempDir(): { dir: string; file: (name: string) => string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thicket-store-'));
  return {
    dir,
    file: (name) => path.join(dir, name),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * A fresh temp folder for each test of the calling describe block (its beforeEach makes it, its
 * afterEach removes it); `file(name)` is a path in the current test's folder.
 */
export function useTempDir(): { readonly dir: string; file: (name: string) => string } {
  let tmp: ReturnType<typeof tempDir> | undefined;
  beforeEach(() => {
    tmp = tempDir();
  });
  afterEach(() => tmp?.cleanup());
  const current = (): ReturnType<typeof tempDir> => {
    if (!tmp) throw new Error('useTempDir: no test is running');
    return tmp;
  };
  return {
    get dir() {
      return current().dir;
    },
    file: (name) => current().file(name),
  };
}

/** Deterministic 32-bit LCG (Numerical Recipes constants). */
export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s;
  };
}

/**
 * A chunk of `packetCount` packets with `raysPerPacket` rays each; every third ray is a
 * miss (NaN range), and one range per chunk carries a NaN payload other than the default.
 */
export function makeChunk(packetStart: number, packetCount: number, raysPerPacket: number, seed = 1): PacketChunk {
  const next = lcg(seed);
  const unit = (): number => next() / 2 ** 32;
  const rayCount = packetCount * raysPerPacket;
  const packetTime = new Float64Array(packetCount);
  const packetPose = new Float64Array(POSE_STRIDE * packetCount);
  const rayStart = new Uint32Array(packetCount + 1);
  for (let p = 0; p < packetCount; p++) {
    packetTime[p] = (packetStart + p) * 0.1;
    packetPose.set([unit() * 100, unit() * 100, unit(), 0, 0, Math.sin(p / 2), Math.cos(p / 2)], POSE_STRIDE * p);
    rayStart[p + 1] = (p + 1) * raysPerPacket;
  }
  const rayDir = new Float32Array(3 * rayCount);
  const rayRange = new Float32Array(rayCount);
  const rayIntensity = new Float32Array(rayCount);
  const rayTime = new Float32Array(rayCount);
  const rayRing = new Uint16Array(rayCount);
  for (let i = 0; i < rayCount; i++) {
    rayDir.set([unit() - 0.5, unit() - 0.5, unit() - 0.5], 3 * i);
    rayRange[i] = i % 3 === 2 ? NaN : 1 + unit() * 80;
    rayIntensity[i] = unit();
    rayTime[i] = (i % raysPerPacket) * 1e-5;
    rayRing[i] = i % 7 === 0 ? RING_UNKNOWN : i % 64;
  }
  if (rayCount > 0) new Uint32Array(rayRange.buffer)[0] = 0x7fc01234; // a NaN with a payload
  const rayReturn = new Uint8Array(rayCount).map((_, i) => i % 2);
  const rayObject = new Uint32Array(rayCount).map((_, i) => (i % 5 === 0 ? 0 : 1000 + i));
  const rayClass = new Uint8Array(rayCount).map((_, i) => i % 8);
  return { packetStart, packetCount, rayCount, packetTime, packetPose, rayStart, rayDir, rayRange, rayIntensity, rayTime, rayRing, rayReturn, rayObject, rayClass };
}

/** Byte view of any typed array, for exact comparison (NaN payloads, -0). */
export function bytes(a: ArrayBufferView): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}
