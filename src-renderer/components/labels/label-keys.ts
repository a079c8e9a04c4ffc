/**
 * The Label page's keyboard map, one table for the handler and the `?` dialog. Tools: V navigate,
 * B box, L lasso, R brush, S segment under cursor, K cut an object along a line, C the 3D box with handles. Number keys 1–9 and 0 pick the palette's first
 * ten classes. X splits an object by Euclidean clustering, Shift+X at its middle; G groups
 * objects into a patch, Shift+G ungroups; O selects the points inside the current object's box (the 3D box tool's
 * box while that tool is on; Shift+O adds, Alt+O subtracts: Ctrl+O opens a project). Ctrl+Z / Ctrl+Shift+Z (or Ctrl+Y) undo and redo; the other keys act on the selection.
 */

export type LabelTool = 'navigate' | 'box' | 'lasso' | 'brush' | 'segment' | 'cut' | 'box3d';

export type LabelAction =
  | { action: 'tool'; tool: LabelTool }
  | { action: 'class'; slot: number }
  | { action: 'undo' }
  | { action: 'redo' }
  | { action: 'assign' }
  | { action: 'unlabel' }
  | { action: 'newObject' }
  | { action: 'merge' }
  | { action: 'splitClusters' }
  | { action: 'splitHalf' }
  | { action: 'group' }
  | { action: 'ungroup' }
  | { action: 'selectInBox'; mode: 'replace' | 'add' | 'subtract' }
  | { action: 'clearSelection' }
  | { action: 'selectAll' }
  | { action: 'invertSelection' }
  | { action: 'heightFilter' }
  | { action: 'sweep'; dir: -1 | 1 }
  | { action: 'sweepView' }
  | { action: 'save' }
  | { action: 'frame' }
  | { action: 'brushRadius'; dir: -1 | 1 }
  | { action: 'help' };

export const TOOL_KEYS: Record<string, LabelTool> = { v: 'navigate', b: 'box', l: 'lasso', r: 'brush', s: 'segment', k: 'cut', c: 'box3d' };

/** Every shortcut as the help dialog lists it. */
export const SHORTCUTS: { keys: string; what: string }[] = [
  { keys: 'V', what: 'Navigate: drag rotates, right-drag pans, wheel zooms' },
  { keys: 'B', what: 'Box select: drag a screen rectangle' },
  { keys: 'L', what: 'Lasso select: drag a polygon' },
  { keys: 'R', what: 'Brush select: paint over points ([ and ] change the radius)' },
  { keys: 'S', what: 'Select the segment (object) under the cursor: click a point' },
  { keys: 'K', what: 'Cut: drag a line across an object (checked, or touched by the selection) to split it there' },
  { keys: 'C', what: '3D box: drag its handles — a face resizes it along the box’s axes, the centre moves it on the ground, the ring turns it (starts from the current object’s box)' },
  { keys: 'Shift + drag', what: 'Add to the selection' },
  { keys: 'Ctrl / Alt + drag', what: 'Subtract from the selection' },
  { keys: 'Middle-drag, right-drag', what: 'Rotate and pan while a selection tool is active' },
  { keys: '1 … 9, 0', what: 'Pick the palette’s 1st … 10th class' },
  { keys: 'A or Enter', what: 'Assign the picked class to the selection' },
  { keys: 'Delete', what: 'Unlabel the selection (class 0, no object)' },
  { keys: 'N', what: 'New object from the selection' },
  { keys: 'M', what: 'Merge the objects checked in the list (or touched by the selection)' },
  { keys: 'X', what: 'Split the object (checked, or touched by the selection) into its Euclidean clusters' },
  { keys: 'Shift + X', what: 'Split the object at the middle of its box’s long axis' },
  { keys: 'G', what: 'Group the checked objects (or those the selection touches) into a shrub patch' },
  { keys: 'Shift + G', what: 'Ungroup the patch' },
  { keys: 'O', what: 'Select the points inside the 3D box, or the current object’s box (Shift + O adds, Alt + O subtracts)' },
  { keys: 'H', what: 'Height filter on/off: select only points ≥ h m above ground' },
  { keys: 'Esc', what: 'Clear the selection' },
  { keys: 'Ctrl + A', what: 'Select every shown point' },
  { keys: 'I', what: 'Invert the selection (within the shown points)' },
  { keys: 'W', what: 'Per-sweep view on/off' },
  { keys: ', and .', what: 'Previous / next sweep in the per-sweep view' },
  { keys: 'F', what: 'Frame the whole cloud' },
  { keys: 'Ctrl + Z', what: 'Undo' },
  { keys: 'Ctrl + Shift + Z, Ctrl + Y', what: 'Redo' },
  { keys: 'Ctrl + S', what: 'Save now (edits also save 3 s after the last one)' },
  { keys: '?', what: 'This list' },
];

export interface KeyLike {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
}

/** The action of a key press, or null when the page does not use it. */
export function labelKey(e: KeyLike): LabelAction | null {
  const mod = e.ctrlKey || e.metaKey;
  const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (mod && !e.altKey) {
    if (k === 'z') return e.shiftKey ? { action: 'redo' } : { action: 'undo' };
    if (k === 'y') return { action: 'redo' };
    if (k === 'a') return { action: 'selectAll' };
    if (k === 's') return { action: 'save' };
    return null;
  }
  if (e.altKey && !e.metaKey && k === 'o') return { action: 'selectInBox', mode: 'subtract' };
  if (e.altKey || e.metaKey) return null;
  if (e.key === '?') return { action: 'help' };
  if (/^[0-9]$/.test(e.key)) return { action: 'class', slot: e.key === '0' ? 9 : Number(e.key) - 1 };
  if (TOOL_KEYS[k] && !e.shiftKey) return { action: 'tool', tool: TOOL_KEYS[k] };
  switch (k) {
    case 'a':
    case 'Enter':
      return { action: 'assign' };
    case 'Delete':
    case 'Backspace':
      return { action: 'unlabel' };
    case 'n':
      return { action: 'newObject' };
    case 'm':
      return { action: 'merge' };
    case 'x':
      return { action: e.shiftKey ? 'splitHalf' : 'splitClusters' };
    case 'g':
      return { action: e.shiftKey ? 'ungroup' : 'group' };
    case 'o':
      return { action: 'selectInBox', mode: e.shiftKey ? 'add' : 'replace' };
    case 'h':
      return { action: 'heightFilter' };
    case 'Escape':
      return { action: 'clearSelection' };
    case 'i':
      return { action: 'invertSelection' };
    case 'w':
      return { action: 'sweepView' };
    case ',':
      return { action: 'sweep', dir: -1 };
    case '.':
      return { action: 'sweep', dir: 1 };
    case 'f':
      return { action: 'frame' };
    case '[':
      return { action: 'brushRadius', dir: -1 };
    case ']':
      return { action: 'brushRadius', dir: 1 };
    default:
      return null;
  }
}
