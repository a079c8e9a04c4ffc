import { describe, expect, it } from 'vitest';
import { copyPlacements, cutPlacements, pasteClip, PASTE_OFFSET } from '../../../src-renderer/components/scene-editor/clipboard';
import { addPlacements, emptyState, setTerrain, type EditorState } from '../../../src-renderer/components/scene-editor/editor-state';

/** A 50 m square from −25 to 25. */
const inSquare = (x: number, y: number) => Math.abs(x) <= 25 && Math.abs(y) <= 25;

function threePlaced(): EditorState {
  return addPlacements(emptyState(), [
    { primitiveId: 7, x: 0, y: 0, yaw: 0.5, scale: 1.2 },
    { primitiveId: 8, x: 4, y: 2, z: 3, yaw: 1, scale: 0.9 },
    { primitiveId: 9, x: -10, y: -10, yaw: 0, scale: 1 },
  ]).state;
}

describe('copy and paste in the scene editor', () => {
  it('pastes the copied layout centred at the point, on the ground, as new keys, leaving the originals', () => {
    const s = threePlaced();
    const clip = copyPlacements(s, [1, 2])!;
    expect(clip.centre).toEqual([2, 1]);
    const r = pasteClip(s, clip, [10, -5], inSquare);
    expect(r.leftOut).toBe(0);
    expect(r.keys).toEqual([4, 5]);
    expect(r.state.placements.slice(0, 3)).toEqual(s.placements);
    // Relative layout kept: (0,0) and (4,2) about their centre (2,1) land at (8,−6) and (12,−4); the hand-set height is dropped.
    expect(r.state.placements.slice(3)).toEqual([
      { key: 4, primitiveId: 7, x: 8, y: -6, yaw: 0.5, scale: 1.2 },
      { key: 5, primitiveId: 8, x: 12, y: -4, yaw: 1, scale: 0.9 },
    ]);
    expect(r.state.nextKey).toBe(6);
  });

  it('without a point, pastes beside the originals (PASTE_OFFSET m along x and y)', () => {
    const s = threePlaced();
    const r = pasteClip(s, copyPlacements(s, [3])!, null, inSquare);
    expect(r.state.placements[3]).toMatchObject({ primitiveId: 9, x: -10 + PASTE_OFFSET, y: -10 + PASTE_OFFSET });
  });

  it('leaves out placements that would stand off the terrain and says how many; none on it is no edit', () => {
    const s = threePlaced();
    const clip = copyPlacements(s, [1, 3])!; // centre (−5, −5), items at (+5, +5) and (−5, −5)
    const r = pasteClip(s, clip, [22, 22], inSquare);
    expect(r.leftOut).toBe(1);
    expect(r.state.placements.slice(3)).toEqual([{ key: 4, primitiveId: 9, x: 17, y: 17, yaw: 0, scale: 1 }]);
    const none = pasteClip(s, clip, [40, 40], inSquare);
    expect(none.leftOut).toBe(2);
    expect(none.keys).toEqual([]);
    expect(none.state).toBe(s);
  });

  it('keeps the clip when the originals are gone (cut, undo, a smaller terrain)', () => {
    const s = threePlaced();
    const cut = cutPlacements(s, [2, 1]);
    expect(cut.state.placements.map((p) => p.key)).toEqual([3]);
    expect(cut.clip!.items.map((i) => i.primitiveId)).toEqual([7, 8]); // document order, not selection order
    // A terrain 10 m across: the originals at (4, 2) and (−10, −10) would go, the clip does not care.
    const small = setTerrain(cut.state, { kind: 'flat', z: 0, extent: { x0: -5, y0: -5, x1: 5, y1: 5 } }, (x, y) => Math.abs(x) <= 5 && Math.abs(y) <= 5);
    expect(small.placements).toEqual([]);
    const r = pasteClip(small, cut.clip!, [0, 0], (x, y) => Math.abs(x) <= 5 && Math.abs(y) <= 5);
    expect(r.state.placements.map((p) => [p.x, p.y])).toEqual([[-2, -1], [2, 1]]);
    expect(cutPlacements(s, [42])).toEqual({ clip: null, state: s });
    expect(copyPlacements(s, [])).toBeNull();
  });
});
