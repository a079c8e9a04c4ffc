/**
 * What the Label page draws: which points are shown (a sweep's or all, thinned evenly to the
 * point budget), their colours by class from the project's class list, the selection tinted, and
 * the legend's per-class counts over every point (not only the shown ones).
 */
import type { LabelClass } from '../../../src-main/api/contract';

const UNLABELLED: [number, number, number] = [0.55, 0.57, 0.6];
const SELECTED: [number, number, number] = [1, 0.2, 0.75];

/** Indices of the points in [from, to), every k-th so that at most `budget` remain. */
export function sampleIndices(from: number, to: number, budget: number): Uint32Array {
  const n = Math.max(0, to - from);
  const stride = Math.max(1, Math.ceil(n / Math.max(1, budget)));
  const out = new Uint32Array(Math.ceil(n / stride));
  for (let k = 0, i = from; i < to; i += stride, k++) out[k] = i;
  return out;
}

/** Like sampleIndices, leaving out points of the hidden classes (the budget counts the points left). */
export function sampleVisible(from: number, to: number, budget: number, classIds: Uint8Array, hidden: ReadonlySet<number>): Uint32Array {
  if (hidden.size === 0) return sampleIndices(from, to, budget);
  const hide = new Uint8Array(256);
  for (const c of hidden) hide[c] = 1;
  let n = 0;
  for (let i = from; i < to; i++) n += hide[classIds[i]!] ? 0 : 1;
  const stride = Math.max(1, Math.ceil(n / Math.max(1, budget)));
  const out = new Uint32Array(Math.ceil(n / stride));
  for (let i = from, seen = 0, k = 0; i < to; i++) {
    if (hide[classIds[i]!]) continue;
    if (seen++ % stride === 0) out[k++] = i;
  }
  return out;
}

/** Positions (x, y, z triples) of the sampled points. */
export function gatherPositions(positions: Float32Array, indices: Uint32Array): Float32Array {
  const out = new Float32Array(indices.length * 3);
  for (let k = 0; k < indices.length; k++) {
    const o = indices[k]! * 3;
    out[k * 3] = positions[o]!;
    out[k * 3 + 1] = positions[o + 1]!;
    out[k * 3 + 2] = positions[o + 2]!;
  }
  return out;
}

/** '#rrggbb' → 0..1 RGB. */
export function hexRgb(hex: string): [number, number, number] {
  const v = Number.parseInt(hex.slice(1), 16);
  return [((v >> 16) & 255) / 255, ((v >> 8) & 255) / 255, (v & 255) / 255];
}

/** RGB per class id (256 × 3); ids missing from the list draw as unlabelled grey. */
export function classLut(classes: readonly LabelClass[]): Float32Array {
  const lut = new Float32Array(256 * 3);
  for (let i = 0; i < 256; i++) lut.set(UNLABELLED, i * 3);
  for (const c of classes) if (c.id !== 0) lut.set(hexRgb(c.color), c.id * 3);
  return lut;
}

/** RGBA per sampled point: its class colour, or the selection's magenta where selected. */
export function labelColors(indices: Uint32Array, classIds: Uint8Array, selection: Uint8Array | null, lut: Float32Array, out: Float32Array = new Float32Array(indices.length * 4)): Float32Array {
  for (let k = 0; k < indices.length; k++) {
    const i = indices[k]!;
    const o = k * 4;
    if (selection && selection[i]) {
      out[o] = SELECTED[0];
      out[o + 1] = SELECTED[1];
      out[o + 2] = SELECTED[2];
    } else {
      const c = classIds[i]! * 3;
      out[o] = lut[c]!;
      out[o + 1] = lut[c + 1]!;
      out[o + 2] = lut[c + 2]!;
    }
    out[o + 3] = 1;
  }
  return out;
}

/** RGBA per sampled point by a proposal's confidence: red (0) through amber to green (1); selected points magenta. */
export function confidenceColors(indices: Uint32Array, confidence: Float32Array, selection: Uint8Array | null, out: Float32Array = new Float32Array(indices.length * 4)): Float32Array {
  for (let k = 0; k < indices.length; k++) {
    const i = indices[k]!;
    const o = k * 4;
    const c = Math.min(1, Math.max(0, confidence[i]! || 0));
    const [r, g, b] = selection && selection[i] ? SELECTED : [Math.min(1, 2 * (1 - c)) * 0.9, Math.min(1, 2 * c) * 0.8, 0.15];
    out[o] = r;
    out[o + 1] = g;
    out[o + 2] = b;
    out[o + 3] = 1;
  }
  return out;
}

/** Points per class id (256 counts). */
export function countClasses(classIds: Uint8Array, from = 0, to = classIds.length): Uint32Array {
  const counts = new Uint32Array(256);
  for (let i = from; i < to; i++) counts[classIds[i]!]!++;
  return counts;
}

export interface LegendEntry {
  id: number;
  name: string;
  color: string;
  count: number;
}

/** The legend: every class with points, unlabelled first, then by the class list's order. */
export function legendEntries(classes: readonly LabelClass[], counts: Uint32Array): LegendEntry[] {
  const out: LegendEntry[] = [];
  if (counts[0]! > 0) out.push({ id: 0, name: 'unlabelled', color: '#8c9199', count: counts[0]! });
  const known = new Set<number>();
  for (const c of classes) {
    known.add(c.id);
    if (c.id !== 0 && counts[c.id]! > 0) out.push({ id: c.id, name: c.name, color: c.color, count: counts[c.id]! });
  }
  for (let id = 1; id < 256; id++) if (!known.has(id) && counts[id]! > 0) out.push({ id, name: `class ${id}`, color: '#8c9199', count: counts[id]! });
  return out;
}
