/** The Label page's keyboard map: tools, classes by number, undo / redo, selection keys and the `?` list. */
import { describe, expect, it } from 'vitest';
import { SHORTCUTS, labelKey } from '../../../src-renderer/components/labels/label-keys';

const key = (k: string, mods: Partial<{ shiftKey: boolean; ctrlKey: boolean; altKey: boolean; metaKey: boolean }> = {}) =>
  labelKey({ key: k, shiftKey: false, ctrlKey: false, altKey: false, metaKey: false, ...mods });

describe('label keys', () => {
  it('picks tools with B, L, R, S and V, either case', () => {
    expect(key('b')).toEqual({ action: 'tool', tool: 'box' });
    expect(key('L')).toEqual({ action: 'tool', tool: 'lasso' });
    expect(key('r')).toEqual({ action: 'tool', tool: 'brush' });
    expect(key('s')).toEqual({ action: 'tool', tool: 'segment' });
    expect(key('v')).toEqual({ action: 'tool', tool: 'navigate' });
    expect(key('k')).toEqual({ action: 'tool', tool: 'cut' });
  });

  it('picks the first ten classes with 1–9 and 0', () => {
    expect(key('1')).toEqual({ action: 'class', slot: 0 });
    expect(key('9')).toEqual({ action: 'class', slot: 8 });
    expect(key('0')).toEqual({ action: 'class', slot: 9 });
  });

  it('undoes with Ctrl+Z, redoes with Ctrl+Shift+Z or Ctrl+Y (Cmd on a Mac), and saves with Ctrl+S', () => {
    expect(key('z', { ctrlKey: true })).toEqual({ action: 'undo' });
    expect(key('Z', { ctrlKey: true, shiftKey: true })).toEqual({ action: 'redo' });
    expect(key('y', { ctrlKey: true })).toEqual({ action: 'redo' });
    expect(key('z', { metaKey: true })).toEqual({ action: 'undo' });
    expect(key('s', { ctrlKey: true })).toEqual({ action: 'save' });
    expect(key('a', { ctrlKey: true })).toEqual({ action: 'selectAll' });
    expect(key('x', { ctrlKey: true })).toBeNull();
  });

  it('acts on the selection, the sweep view and the help', () => {
    expect(key('a')).toEqual({ action: 'assign' });
    expect(key('Enter')).toEqual({ action: 'assign' });
    expect(key('Delete')).toEqual({ action: 'unlabel' });
    expect(key('n')).toEqual({ action: 'newObject' });
    expect(key('m')).toEqual({ action: 'merge' });
    expect(key('x')).toEqual({ action: 'splitClusters' });
    expect(key('X', { shiftKey: true })).toEqual({ action: 'splitHalf' });
    expect(key('g')).toEqual({ action: 'group' });
    expect(key('G', { shiftKey: true })).toEqual({ action: 'ungroup' });
    expect(key('o')).toEqual({ action: 'selectInBox', mode: 'replace' });
    expect(key('O', { shiftKey: true })).toEqual({ action: 'selectInBox', mode: 'add' });
    expect(key('o', { altKey: true })).toEqual({ action: 'selectInBox', mode: 'subtract' });
    expect(key('c')).toEqual({ action: 'tool', tool: 'box3d' });
    expect(key('Escape')).toEqual({ action: 'clearSelection' });
    expect(key('h')).toEqual({ action: 'heightFilter' });
    expect(key('w')).toEqual({ action: 'sweepView' });
    expect(key('.')).toEqual({ action: 'sweep', dir: 1 });
    expect(key(',')).toEqual({ action: 'sweep', dir: -1 });
    expect(key(']')).toEqual({ action: 'brushRadius', dir: 1 });
    expect(key('?', { shiftKey: true })).toEqual({ action: 'help' });
    expect(key('b', { altKey: true })).toBeNull();
    expect(key('q')).toBeNull();
  });

  it('lists every key it maps in the help', () => {
    const listed = SHORTCUTS.map((s) => s.keys).join(' ');
    for (const k of ['B', 'L', 'R', 'S', 'V', 'Ctrl + Z', 'Ctrl + Shift + Z', '1 … 9, 0', 'N', 'M', 'H', 'W', 'Esc', '?', 'Delete', 'F', 'X', 'Shift + X', 'G', 'Shift + G', 'O', 'K', 'C']) expect(listed).toContain(k);
  });
});
