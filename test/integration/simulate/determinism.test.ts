/**
 * Determinism across worker counts: the same request on a 1-worker and a 2-worker host stores
 * bit-identical runs (every packet draws from its own (seed, packet) stream; batches are fixed).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createAppServices, type AppServices } from '../../../src-main/services/app-services';
import { CHUNK_ARRAY_FIELDS, type PacketChunk } from '../../../src-common/packets';
import type { SimulationMode } from '../../../src-common/modes';
import { tempDir } from '../../helpers/temp';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

async function settle(s: AppServices, id: number) {
  const job = await s.whenJobSettled(id);
  if (job.state !== 'done') throw new Error(`job ${job.kind} ${job.state}: ${job.error}`);
  return job.result!;
}

function bytesOf(chunks: PacketChunk[]): Buffer[] {
  return chunks.flatMap((c) => CHUNK_ARRAY_FIELDS.map((f) => Buffer.from(c[f].buffer, c[f].byteOffset, c[f].byteLength)));
}

async function simulateWith(workers: number, mode: SimulationMode, kind: 'offroad' | 'hybrid-strip'): Promise<{ chunks: PacketChunk[]; result: Record<string, unknown> }> {
  const s = await createAppServices({ shell: 'cli', homeDir: join(tmp.dir, `home-${workers}`), workers });
  try {
    await s.call('project.create', { path: join(tmp.dir, `d-${workers}-${mode}.thicket`) });
    const params = kind === 'offroad' ? { sizeM: 30, targetTriangles: 60_000 } : { lengthM: 40 };
    const gen = await s.call('scenes.generate', { kind, seed: 7, params });
    const { scene } = (await settle(s, gen.job.id)) as { scene: number };
    const sim = await s.call('simulate.start', {
      sceneId: scene,
      profileId: 'vlp16',
      mode,
      seed: 11,
      batchPackets: 16,
      trajectory: { kind: 'straight', seconds: 0.1, start: [-10, 0, 0], headingDeg: 0, speed: 5 },
    });
    const result = await settle(s, sim.job.id);
    const chunks = [...s.requireSession().store.runs.chunks(result.run as number)];
    return { chunks, result };
  } finally {
    await s.close();
  }
}

describe('simulation determinism across worker counts', () => {
  for (const [mode, kind] of [
    ['physics', 'offroad'],
    ['mesh', 'offroad'],
    ['hybrid', 'hybrid-strip'],
  ] as const) {
    it(`${mode}: 1 worker and 2 workers store bit-identical runs`, async () => {
      const one = await simulateWith(1, mode, kind);
      const two = await simulateWith(2, mode, kind);
      expect(one.result).toEqual({ ...two.result, run: one.result.run });
      expect(one.chunks.length).toBeGreaterThan(1); // several batches, so parallelism was real
      expect((one.result.hits as number) + (one.result.misses as number)).toBeGreaterThan(10_000);
      const a = bytesOf(one.chunks);
      const b = bytesOf(two.chunks);
      expect(a.length).toBe(b.length);
      a.forEach((buf, i) => expect(buf.equals(b[i]!)).toBe(true));
    });
  }
});
