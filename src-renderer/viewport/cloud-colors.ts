/**
 * Per-point colours and the matching legend for a display cloud and a colour mode.
 * Pure (no Babylon, no DOM) so the mapping is unit-tested and reused by the histogram.
 */
import type { CloudData, ColorMode } from '../../src-main/api/contract';
import { buildLut, classColor, classColors, cssGradient, percentileRange, rgbCss, scalarColors, type ScalarMapName, type ScalarRange } from '../../src-common/colormaps';
import { RING_UNKNOWN } from '../../src-common/packets';

export interface LegendEntry {
  id: number;
  name: string;
  color: string;
  count: number;
}

/**
 * A scalar legend is a gradient bar between its range's ends; `map` names the colour map (absent
 * for a scale of its own, such as the Evaluation page's diverging range error) and `entries`
 * are swatches for what the scale does not cover (the error's misses).
 */
export type Legend =
  | { kind: 'scalar'; mode: ColorMode | 'range-error'; label: string; unit: string; map?: ScalarMapName; gradient: string; range: ScalarRange; note?: string; entries?: LegendEntry[] }
  | { kind: 'classes'; mode: 'class'; label: string; entries: LegendEntry[] };

/** The colour modes as the viewports' colour selects list them. */
export const COLOR_MODE_OPTIONS: { value: ColorMode; label: string }[] = [
  { value: 'height', label: 'Height' },
  { value: 'intensity', label: 'Intensity' },
  { value: 'class', label: 'Class' },
  { value: 'time', label: 'Time' },
  { value: 'ring', label: 'Ring' },
];

const SCALAR: Record<Exclude<ColorMode, 'class'>, { label: string; unit: string; map: ScalarMapName }> = {
  height: { label: 'Height (z)', unit: 'm', map: 'turbo' },
  intensity: { label: 'Intensity', unit: '', map: 'viridis' },
  time: { label: 'Time since log start', unit: 's', map: 'viridis' },
  ring: { label: 'Ring (laser)', unit: '', map: 'turbo' },
};


/** Ring per point as a scalar, NaN where unknown (drawn grey). */
export function ringValues(ring: Uint16Array): Float32Array {
  const out = new Float32Array(ring.length);
  for (let i = 0; i < ring.length; i++) out[i] = ring[i] === RING_UNKNOWN ? NaN : ring[i]!;
  return out;
}

/** Full range of the known rings: every laser gets its own colour, none clipped as by percentiles. */
export function ringRange(values: Float32Array): ScalarRange {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (!Number.isFinite(min)) return { min: 0, max: 1 };
  return max > min ? { min, max } : { min: min - 0.5, max: max + 0.5 };
}

const luts = new Map<ScalarMapName, Float32Array>();
function lut(name: ScalarMapName): Float32Array {
  let l = luts.get(name);
  if (!l) luts.set(name, (l = buildLut(name)));
  return l;
}

/** World z of every point (positions are x,y,z triples). */
export function heights(positions: Float32Array): Float32Array {
  const n = Math.floor(positions.length / 3);
  const z = new Float32Array(n);
  for (let i = 0; i < n; i++) z[i] = positions[i * 3 + 2]!;
  return z;
}

/** The per-point scalar a mode colours by, or null for the categorical class mode. */
export function scalarFor(cloud: CloudData, mode: ColorMode): Float32Array | null {
  if (mode === 'height') return heights(cloud.positions);
  if (mode === 'intensity') return cloud.intensity;
  if (mode === 'time') return cloud.time;
  if (mode === 'ring') return ringValues(cloud.ring);
  return null;
}

export function classCounts(ids: Uint8Array): Map<number, number> {
  const counts = new Uint32Array(256);
  for (let i = 0; i < ids.length; i++) counts[ids[i]!]!++;
  const out = new Map<number, number>();
  for (let id = 0; id < 256; id++) if (counts[id]! > 0) out.set(id, counts[id]!);
  return out;
}

export function className(id: number): string {
  return id === 0 ? 'unlabeled' : `class ${id}`;
}

export interface Colored {
  colors: Float32Array;
  legend: Legend;
  /** The scalar the colours came from (reused by the histogram), null in class mode. */
  values: Float32Array | null;
}

/**
 * Colours for a cloud in a mode. `range` fixes the scalar range (the current sweep coloured on the
 * whole log's scale, so its colours mean what the legend says); by default it comes from the cloud.
 */
export function colorizeCloud(cloud: CloudData, mode: ColorMode, reuse?: Float32Array, range?: ScalarRange): Colored {
  const n = Math.floor(cloud.positions.length / 3);
  const colors = reuse && reuse.length === n * 4 ? reuse : new Float32Array(n * 4);
  const values = scalarFor(cloud, mode);
  if (!values) {
    classColors(cloud.classId, colors);
    const entries = [...classCounts(cloud.classId)].map(([id, count]) => ({ id, name: className(id), color: rgbCss(classColor(id)), count }));
    return { colors, values: null, legend: { kind: 'classes', mode: 'class', label: 'Class', entries } };
  }
  const spec = SCALAR[mode as Exclude<ColorMode, 'class'>];
  const r = range ?? (mode === 'ring' ? ringRange(values) : percentileRange(values));
  scalarColors(values, r, lut(spec.map), colors);
  const note = mode === 'ring' ? 'all' : '2–98 %';
  return { colors, values, legend: { kind: 'scalar', mode, label: spec.label, unit: spec.unit, map: spec.map, gradient: cssGradient(spec.map), range: r, note } };
}
