/**
 * The Label page's object edits beyond the points' classes (docs/labeling.md, "The Label page"):
 * Euclidean clustering for a split, the halves along a box's long axis, the points inside an
 * oriented box, and objects' attributes (patch flags, boxes set by hand) in the undo history,
 * read back from a version's entries and written into them.
 */
import { describe, expect, it } from 'vitest';
import { LabelEdits } from '../../../src-renderer/components/labels/label-edits';
import { fitObjectBoxes, metaFromEntries, toEntry, withMeta } from '../../../src-renderer/components/labels/object-boxes';
import { boxSelect, euclideanClusters, halfAlongLength, objectIndices, sideOfScreenLine } from '../../../src-renderer/components/labels/object-split';

const idx = (...i: number[]) => Uint32Array.from(i);

describe('splitting objects', () => {
  // Three groups along x: 4 points at 0–0.3, 2 points at 5–5.2, 1 point at 9.
  const xs = [0, 0.1, 0.2, 0.3, 5, 5.2, 9];
  const positions = Float32Array.from(xs.flatMap((x) => [x, 1, 0]));

  it('clusters by a distance tolerance, the largest cluster first', () => {
    const all = Uint32Array.from(xs.keys());
    const { cluster, count } = euclideanClusters(positions, all, 0.5);
    expect(count).toBe(3);
    expect([...cluster]).toEqual([0, 0, 0, 0, 1, 1, 2]);
    // A tolerance wider than the gaps keeps one cluster; one narrower than the spacing parts every point.
    expect(euclideanClusters(positions, all, 5).count).toBe(1);
    expect(euclideanClusters(positions, all, 0.05).count).toBe(7);
    // Only the points asked for.
    expect(euclideanClusters(positions, idx(4, 5), 0.5)).toEqual({ cluster: idx(0, 0), count: 1 });
  });

  it('chains neighbours across grid cells, in 3D', () => {
    const p = Float32Array.from([0, 0, 0, 0.4, 0.4, 0, 0.8, 0.8, 0.1, 3, 3, 3]);
    expect([...euclideanClusters(p, idx(0, 1, 2, 3), 0.6).cluster]).toEqual([0, 0, 0, 1]);
  });

  it('halves an object at the middle of its box’s long axis, and selects inside an oriented box', () => {
    const box = { center: [104.5, 201, 0] as [number, number, number], size: [9, 1, 1] as [number, number, number], yaw: 0 };
    expect([...halfAlongLength(positions, [100, 200, 0], Uint32Array.from(xs.keys()), box)]).toEqual([0, 0, 0, 0, 1, 1, 1]);
    const out = new Uint8Array(7);
    boxSelect(positions, [100, 200, 0], { center: [100.15, 201, 0], size: [0.4, 0.2, 0.2], yaw: 0 }, [0, 7], out);
    expect([...out]).toEqual([1, 1, 1, 1, 0, 0, 0]);
    // Turned 90°: the box's length runs along y, so x spans only its width.
    out.fill(0);
    boxSelect(positions, [100, 200, 0], { center: [100.15, 201, 0], size: [0.4, 0.2, 0.2], yaw: Math.PI / 2 }, [0, 7], out);
    expect([...out]).toEqual([0, 1, 1, 0, 0, 0, 0]);
    expect([...objectIndices(idx(3, 0, 3, 2), 3)]).toEqual([0, 2]);
  });

  it('cuts by the plane through the camera and a line drawn on the screen', () => {
    // A view where world x ∈ [−1, 1] runs across a 100 px screen and world z up it (clip w = 1 + world y).
    const view = { matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1], width: 100, height: 100, centre: [0, 0, 0] as const };
    const p = Float32Array.from([-0.5, 0, 0, 0.5, 0, 0, -0.5, 0, 0.5, 0.5, 3, 0.5]);
    // A vertical line down the middle, drawn top to bottom: its left is screen +x; drawn upwards, −x.
    expect([...sideOfScreenLine(p, idx(0, 1, 2, 3), view, [50, 0], [50, 100])]).toEqual([0, 1, 0, 1]);
    expect([...sideOfScreenLine(p, idx(0, 1, 2, 3), view, [50, 100], [50, 0])]).toEqual([1, 0, 1, 0]);
    // A horizontal line drawn rightwards at y 40: above it (world z 0.5, screen y 25) is its left.
    expect([...sideOfScreenLine(p, idx(0, 2), view, [0, 40], [100, 40])]).toEqual([0, 1]);
  });

  it('gives each point its own new id through an edit, undoably', () => {
    const e = new LabelEdits(new Uint8Array(4), idx(5, 5, 5, 5));
    const cluster = idx(0, 1, 0, 2);
    e.apply('split', idx(0, 1, 2, 3), null, (o, j) => (cluster[j] ? 6 + cluster[j]! - 1 : o));
    expect([...e.instances]).toEqual([5, 6, 5, 7]);
    e.undo();
    expect([...e.instances]).toEqual([5, 5, 5, 5]);
  });
});

describe('object attributes', () => {
  it('keeps patch flags and boxes set by hand in the history', () => {
    const e = new LabelEdits(new Uint8Array(3), idx(1, 2, 2));
    const box = { center: [1, 2, 3] as [number, number, number], size: [4, 5, 6] as [number, number, number], yaw: 0.5 };
    expect(e.apply('patch', idx(0), null, 2, new Map([[2, { patch: true }], [1, undefined]]))).not.toBeNull();
    expect(e.objects.get(2)).toEqual({ patch: true });
    // A box alone (no points) is an edit; the same box again is none.
    expect(e.apply('box', new Uint32Array(0), null, null, new Map([[2, { patch: true, box }]]))!.indices).toHaveLength(0);
    expect(e.apply('box again', new Uint32Array(0), null, null, new Map([[2, { patch: true, box: { ...box } }]]))).toBeNull();
    expect(e.history.done).toEqual(['patch', 'box']);
    e.undo();
    expect(e.objects.get(2)).toEqual({ patch: true });
    e.undo();
    expect(e.objects.size).toBe(0);
    expect([...e.instances]).toEqual([1, 2, 2]);
    e.goTo(2);
    expect(e.objects.get(2)!.box).toEqual(box);
  });

  it('writes patches and hand-set boxes into entries (boxSet), and reads them back from a version’s', () => {
    const positions = Float32Array.from([0, 0, 0, 2, 0, 1, 10, 0, 0, 10, 1, 1]);
    const fitted = fitObjectBoxes(positions, [0, 0, 0], Uint8Array.from([7, 7, 4, 4]), idx(1, 1, 2, 2));
    const box = { center: [0, 0, 0] as [number, number, number], size: [3, 3, 3] as [number, number, number], yaw: 1 };
    const shown = withMeta(fitted, new Map([[1, { patch: true }], [2, { box }]]));
    expect(shown[0]).toMatchObject({ id: 1, patch: true, size: fitted[0]!.size });
    expect(shown[1]).toMatchObject({ id: 2, edited: true, center: [0, 0, 0], size: [3, 3, 3], yaw: 1 });
    const entries = shown.map((b) => toEntry(b, 'x'));
    expect(entries[0]!.patch).toBe(true);
    expect(entries[1]!.patch).toBeUndefined();
    expect(entries[1]!.box).toEqual(box);
    expect(entries[1]!.boxSet).toBe(true);
    expect(entries[0]!.boxSet).toBeUndefined();
    // Read back: the patch flag and the box set by hand; fitted boxes (a proposal's, say) are fitted again.
    expect(metaFromEntries(entries)).toEqual(new Map([[1, { patch: true }], [2, { box }]]));
    expect(metaFromEntries(fitted.map((b) => toEntry(b, 'x'))).size).toBe(0);
  });
});
