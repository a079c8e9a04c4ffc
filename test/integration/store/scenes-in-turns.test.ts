/**
 * Scenes written and read a chunk per turn of the event loop: a staged scene is hidden until it
 * is published, a host that stops mid-write leaves nothing after the next open, and both ways of
 * reading give the same arrays.
 */
import { describe, expect, it } from 'vitest';
import { openProject } from '../../../src-main/store';
import { nextTurn } from '../../../src-main/store/array-store';
import { useTempDir } from './helpers';

/** A scene with one array of several storage chunks (4 MB each) and a few small ones. */
function bigScene(): Record<string, unknown> {
  const big = new Float32Array(3_000_000); // 12 MB: three chunks
  for (let i = 0; i < big.length; i++) big[i] = Math.sin(i) * 100;
  return { format: 'test', triVerts: big, parts: [{ ids: new Uint32Array([1, 2, 3]) }, { gauss: new Float64Array([0.5, NaN, -2]) }], count: 7 };
}

describe('scenes written and read in turns', () => {
  const tmp = useTempDir();

  it('a staged scene is invisible until published; publishing takes the final metadata', async () => {
    const store = openProject(tmp.file('s.thicket'), { create: true });
    try {
      const data = bigScene();
      let turns = 0;
      let writing = true;
      // Count the event-loop turns the write gives away: one per storage chunk at least.
      void (async () => {
        while (writing) {
          await nextTurn();
          turns++;
        }
      })();
      const staged = await store.scenes.stage('site', { kind: 'reference-site' }, data);
      writing = false;
      expect(turns).toBeGreaterThanOrEqual(5);
      expect(store.scenes.list()).toEqual([]);
      expect(store.scenes.get(staged.id)).toBeNull();
      expect(store.counts().scenes).toBe(0);
      const info = store.transaction(() => store.scenes.publish(staged, { kind: 'reference-site', annotation: 9 }));
      expect(info.meta).toEqual({ kind: 'reference-site', annotation: 9 });
      expect(store.scenes.list().map((s) => s.id)).toEqual([staged.id]);
      const inTurns = await store.scenes.readInTurns(staged.id);
      const atOnce = store.scenes.read(staged.id);
      expect(inTurns!.data).toEqual(data);
      expect(atOnce!.data).toEqual(data);
      expect(() => store.scenes.publish(staged)).toThrow(/not being written/);
    } finally {
      store.close();
    }
  });

  it('a scene left half-written is discarded on the next open, arrays and all', async () => {
    const file = tmp.file('crash.thicket');
    let store = openProject(file, { create: true });
    const staged = await store.scenes.stage('half', {}, bigScene());
    expect(store.arrays('scene_arrays').listArrays(staged.id).length).toBeGreaterThan(0);
    store.close(); // the host stops before publishing
    store = openProject(file, { create: false });
    try {
      expect(store.recovery.discardedScenes).toBe(1);
      expect(store.arrays('scene_arrays').listArrays(staged.id)).toEqual([]);
      expect(store.scenes.list()).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('createInTurns stores what create stores', async () => {
    const store = openProject(tmp.file('c.thicket'), { create: true });
    try {
      const data = bigScene();
      const a = await store.scenes.createInTurns('a', { n: 1 }, data);
      const b = store.scenes.create('b', { n: 1 }, data);
      expect(store.scenes.read(a.id)!.data).toEqual(store.scenes.read(b.id)!.data);
      expect(store.scenes.discard(a.id)).toBe(false); // a published scene is not discarded as staged
    } finally {
      store.close();
    }
  });
});
