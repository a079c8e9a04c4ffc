import { describe, expect, it } from 'vitest';
import { EditHistory } from '../../../src-renderer/components/scene-editor/edit-history';

describe('the scene editor’s edit history', () => {
  it('undoes and redoes every edit in order, and an edit after undos drops what was undone', () => {
    const h = new EditHistory<number[]>([]);
    const a = [1], b = [1, 2], c = [1, 2, 3];
    expect(h.push('add 1', a)).toBe(true);
    h.push('add 2', b);
    h.push('add 3', c);
    expect(h.list.map((e) => e.label)).toEqual(['Start', 'add 1', 'add 2', 'add 3']);
    expect(h.undo()).toBe(b);
    expect(h.undo()).toBe(a);
    expect(h.canRedo).toBe(true);
    expect(h.redo()).toBe(b);
    const d = [1, 2, 4];
    h.push('add 4', d);
    expect(h.list.map((e) => e.label)).toEqual(['Start', 'add 1', 'add 2', 'add 4']);
    expect(h.canRedo).toBe(false);
    expect(h.redo()).toBe(d);
    expect(h.at(0)).toEqual([]);
    expect(h.canUndo).toBe(false);
    expect(h.undo()).toEqual([]);
    expect(h.at(99)).toBe(d);
  });

  it('records no edit for the same state, forgets the oldest past its limit, and resets', () => {
    const h = new EditHistory<{ n: number }>({ n: 0 }, 'Start', 3);
    expect(h.push('same', h.state)).toBe(false);
    for (let n = 1; n <= 5; n++) h.push(`n=${n}`, { n });
    expect(h.list.map((e) => e.label)).toEqual(['n=3', 'n=4', 'n=5']);
    expect(h.index).toBe(2);
    h.undo();
    h.undo();
    expect(h.state).toEqual({ n: 3 });
    expect(h.canUndo).toBe(false);
    h.reset({ n: 9 }, 'Opened');
    expect(h.list).toEqual([{ label: 'Opened', state: { n: 9 } }]);
  });
});
