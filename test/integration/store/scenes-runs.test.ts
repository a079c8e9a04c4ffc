import { describe, expect, it } from 'vitest';
import { openProject } from '../../../src-main/store';
import { makeChunk, useTempDir } from './helpers';

describe('scenes and runs repositories', () => {
  const tmp = useTempDir();

  it('stores a scene of nested typed arrays and reads it back exactly', () => {
    const file = tmp.file('s.thicket');
    let store = openProject(file, { create: true });
    const data = {
      version: 1,
      threshold: 3.5,
      primitives: [
        { kind: 'mesh', positions: new Float32Array([0, 1, 2, 3, 4, 5, 6, 7, 8]), nodes: new Int32Array([1, -2, 3]) },
        { kind: 'ellipsoids', mean: new Float64Array([1.5, 2.5, NaN]) },
      ],
      instances: { transforms: new Float64Array(12).fill(0.25), objectIds: new Uint32Array([7, 8]) },
    };
    const info = store.scenes.create('bench', { kind: 'offroad', seed: 3 }, data);
    expect(info).toMatchObject({ name: 'bench', meta: { kind: 'offroad', seed: 3 } });
    store.close();
    store = openProject(file, { create: false });
    try {
      const back = store.scenes.read(info.id)!;
      expect(back.data).toEqual(data);
      expect((back.data.primitives as { nodes: Int32Array }[])[0]!.nodes).toBeInstanceOf(Int32Array);
      expect(store.scenes.list().map((s) => s.id)).toEqual([info.id]);
      expect(store.counts().scenes).toBe(1);
      expect(store.scenes.delete(info.id)).toBe(true);
      expect(store.arrays('scene_arrays').listArrays(info.id)).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('a scene with an unsupported array type is refused whole', () => {
    const store = openProject(tmp.file('bad.thicket'), { create: true });
    try {
      expect(() => store.scenes.create('x', {}, { a: new Float32Array(3), b: new BigInt64Array(2) })).toThrow(/data\.b: unsupported array type/);
      expect(store.scenes.list()).toEqual([]);
      expect(store.db.prepare('SELECT count(*) FROM scene_arrays').pluck().get()).toBe(0);
    } finally {
      store.close();
    }
  });

  it('runs: batches arrive in any order, read back in batch order; discard removes everything', () => {
    const store = openProject(tmp.file('r.thicket'), { create: true });
    try {
      const scene = store.scenes.create('s', {}, {});
      const job = store.jobs.create('simulate', {});
      const run = store.runs.begin({ name: 'r1', sceneId: scene.id, profileId: 'vlp16', mode: 'physics', seed: 5, trajectory: { kind: 'static' }, params: { batchPackets: 2 }, jobId: job.id });
      expect(store.runs.get(run)).toBeNull(); // not ready yet
      for (const seq of [2, 0, 1]) store.runs.appendChunk(run, seq, makeChunk(seq * 2, 2, 4));
      const info = store.runs.finish(run, { packets: 6, points: 20, hits: 20, misses: 4, durationS: 0.3, bounds: null });
      expect(info).toMatchObject({ name: 'r1', sceneId: scene.id, profileId: 'vlp16', mode: 'physics', seed: 5, packets: 6 });
      expect([...store.runs.chunks(run)].map((c) => c.packetStart)).toEqual([0, 2, 4]);
      expect(() => store.runs.appendChunk(run, 3, makeChunk(6, 2, 4))).toThrow(/not being simulated/);
      expect(store.counts().runs).toBe(1);
      const other = store.runs.begin({ name: 'r2', sceneId: null, profileId: 'x', mode: 'mesh', seed: 0, trajectory: {}, params: {}, jobId: null });
      store.runs.appendChunk(other, 0, makeChunk(0, 2, 4));
      expect(store.runs.discard(other)).toBe(true);
      expect(store.db.prepare('SELECT count(*) FROM run_chunks WHERE run_id = ?').pluck().get(other)).toBe(0);
      expect(() => store.runs.begin({ name: 'r3', sceneId: 999, profileId: 'x', mode: 'mesh', seed: 0, trajectory: {}, params: {}, jobId: null })).toThrow(/no scene 999/);
    } finally {
      store.close();
    }
  });
});
