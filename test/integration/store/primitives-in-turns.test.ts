/**
 * Extracted primitives written a chunk per turn of the event loop: hidden until published (which
 * may name the annotation made in the same step), read back as written, and dropped on the next
 * open when their host stopped mid-write.
 */
import { describe, expect, it } from 'vitest';
import type { Primitive } from '../../../src-common/primitive';
import { openProject } from '../../../src-main/store';
import { useTempDir } from './helpers';

/** A shrub with one ellipsoid and `points` raw points (3 floats each). */
function shrub(points: number): Primitive {
  return {
    id: 0, class: 4, extents: [1, 1, 2], source: 'object',
    ellipsoids: { means: Float64Array.of(0, 0, 1), covariances: Float64Array.of(0.2, 0, 0, 0.2, 0, 0.3), pHit: Float32Array.of(0.8) },
    points: Float32Array.from({ length: 3 * points }, (_, i) => (i % 97) * 0.01),
  };
}

const row = (p: Primitive) => ({ primitive: p, library: 'hybrid' as const, modelId: null, sourceLogId: null, origin: { annotationId: null } });

describe('primitives written in turns', () => {
  const tmp = useTempDir();

  it('are invisible until published, then read back as written, with the annotation named at publishing', async () => {
    const store = openProject(tmp.file('p.thicket'), { create: true });
    try {
      const batch = [shrub(400_000), shrub(10)]; // 4.8 MB of points in the first: two storage chunks
      const ids = await store.primitives.stageMany(batch.map(row), null);
      expect(store.primitives.list()).toEqual([]);
      expect(store.counts().primitives).toBe(0);
      const infos = store.transaction(() => store.primitives.publishMany(ids, 42));
      expect(infos.map((i) => i.origin)).toEqual([{ annotationId: 42 }, { annotationId: 42 }]);
      expect(store.primitives.list().map((p) => p.id)).toEqual(ids);
      const back = store.primitives.primitive(ids[0]!)!;
      expect(Array.from(back.points!)).toEqual(Array.from(batch[0]!.points!));
      expect(Array.from(back.ellipsoids!.covariances)).toEqual(Array.from(batch[0]!.ellipsoids!.covariances));
      expect(() => store.primitives.publishMany(ids)).toThrow(/not being written/);
    } finally {
      store.close();
    }
  });

  it('left half-written, they are dropped on the next open, arrays and all', async () => {
    const file = tmp.file('crash.thicket');
    let store = openProject(file, { create: true });
    const ids = await store.primitives.stageMany([row(shrub(1000))], null);
    store.close(); // the host stops before publishing
    store = openProject(file, { create: false });
    try {
      expect(store.recovery.discardedPrimitives).toBe(1);
      expect(store.arrays('primitive_arrays').listArrays(ids[0]!)).toEqual([]);
    } finally {
      store.close();
    }
  });
});
