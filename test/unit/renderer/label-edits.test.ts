/**
 * The Label page's edit history: an edit stores only the points it changed, undo and redo restore
 * them exactly, a new edit drops the redo branch, the history list's titles and jumps, and the
 * oldest edits go once the history holds too many points. Also the objects' boxes fitted by PCA.
 */
import { describe, expect, it } from 'vitest';
import { LabelEdits, nextInstanceId } from '../../../src-renderer/components/labels/label-edits';
import { boxCorners, fitObjectBoxes, principalYaw, toEntry } from '../../../src-renderer/components/labels/object-boxes';

const idx = (...i: number[]) => Uint32Array.from(i);

describe('undo stack', () => {
  it('applies, undoes and redoes exactly the points touched', () => {
    const e = new LabelEdits(Uint8Array.from([0, 0, 2, 2]), Uint32Array.from([0, 0, 5, 5]));
    expect(e.apply('ground → 3', idx(0, 1, 2), 1, null)!.indices).toEqual(idx(0, 1, 2));
    expect([...e.classes]).toEqual([1, 1, 1, 2]);
    expect(e.apply('object #6', idx(0, 1), null, 6)).not.toBeNull();
    expect([...e.instances]).toEqual([6, 6, 5, 5]);
    expect(e.history).toEqual({ done: ['ground → 3', 'object #6'], undone: [] });

    e.undo();
    expect([...e.instances]).toEqual([0, 0, 5, 5]);
    e.undo();
    expect([...e.classes]).toEqual([0, 0, 2, 2]);
    expect(e.canUndo).toBe(false);
    expect(e.undo()).toBeNull();
    expect(e.history).toEqual({ done: [], undone: ['ground → 3', 'object #6'] });
    e.redo();
    e.redo();
    expect([...e.classes]).toEqual([1, 1, 1, 2]);
    expect([...e.instances]).toEqual([6, 6, 5, 5]);
    expect(e.redo()).toBeNull();
  });

  it('leaves out points that would not change, and makes no edit when none would', () => {
    const e = new LabelEdits(Uint8Array.from([3, 0]), new Uint32Array(2));
    expect(e.apply('x', idx(0, 1), 3, null)!.indices).toEqual(idx(1));
    expect(e.apply('again', idx(0, 1), 3, null)).toBeNull();
    expect(e.history.done).toEqual(['x']);
  });

  it('maps object ids through a function (merge) and forgets the redo branch on a new edit', () => {
    const e = new LabelEdits(new Uint8Array(4), Uint32Array.from([1, 2, 3, 0]));
    e.apply('merge', idx(0, 1, 2, 3), null, (o) => (o === 2 || o === 3 ? 1 : o));
    expect([...e.instances]).toEqual([1, 1, 1, 0]);
    e.undo();
    expect(e.canRedo).toBe(true);
    e.apply('other', idx(3), 4, null);
    expect(e.canRedo).toBe(false);
    expect(e.history).toEqual({ done: ['other'], undone: [] });
  });

  it('jumps through the history and drops the oldest edits past its point limit', () => {
    const e = new LabelEdits(new Uint8Array(10), new Uint32Array(10), 6);
    for (let k = 1; k <= 4; k++) e.apply(`#${k}`, idx(0, 1, 2), k, null);
    // 4 edits × 3 points > 6: only the newest two are kept.
    expect(e.history.done).toEqual(['#3', '#4']);
    e.goTo(0);
    expect(e.classes[0]).toBe(2);
    e.goTo(2);
    expect(e.classes[0]).toBe(4);
    expect(e.revision).toBeGreaterThan(4);
  });

  it('numbers a new object above every id in use', () => {
    expect(nextInstanceId(Uint32Array.from([0, 7, 3]))).toBe(8);
    expect(nextInstanceId(new Uint32Array(3))).toBe(1);
  });
});

describe('object boxes', () => {
  it('fits the yaw of an elongated object by PCA and spans its points', () => {
    const yaw = 0.5;
    const xyz: number[] = [];
    for (let k = -10; k <= 10; k++) for (const v of [-0.5, 0.5]) for (const z of [0, 2]) xyz.push(Math.cos(yaw) * k * 0.2 - Math.sin(yaw) * v, Math.sin(yaw) * k * 0.2 + Math.cos(yaw) * v, z);
    const n = xyz.length / 3;
    const [box] = fitObjectBoxes(Float32Array.from(xyz), [100, 50, 1], new Uint8Array(n).fill(7), new Uint32Array(n).fill(3));
    expect(box!.id).toBe(3);
    expect(box!.class).toBe(7);
    expect(box!.points).toBe(n);
    expect(box!.yaw).toBeCloseTo(yaw, 5);
    expect(box!.size[0]).toBeCloseTo(4, 4);
    expect(box!.size[1]).toBeCloseTo(1, 4);
    expect(box!.size[2]).toBeCloseTo(2, 5);
    expect(box!.center[0]).toBeCloseTo(100, 4);
    expect(box!.center[1]).toBeCloseTo(50, 4);
    expect(box!.center[2]).toBeCloseTo(2, 5);
    const entry = toEntry(box!, 'small tree');
    expect(entry.pose[5]).toBeCloseTo(Math.sin(yaw / 2));
    expect(entry.pose[6]).toBeCloseTo(Math.cos(yaw / 2));
    expect(boxCorners(box!)).toHaveLength(8);
  });

  it('takes the class most of an object’s points have, and skips points in no object', () => {
    const boxes = fitObjectBoxes(new Float32Array(12), [0, 0, 0], Uint8Array.from([4, 5, 5, 9]), Uint32Array.from([2, 2, 2, 0]));
    expect(boxes.map((b) => [b.id, b.class, b.points])).toEqual([[2, 5, 3]]);
    expect(principalYaw(1, 0, 1)).toBe(0);
    expect(principalYaw(0, 0, 1)).toBeCloseTo(Math.PI / 2);
  });
});
