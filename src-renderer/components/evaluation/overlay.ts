/**
 * The real log's and the simulated run's display clouds as one cloud for the viewport (one
 * Babylon mesh draws both): positions and attributes concatenated, real first. In class colour
 * mode the points are coloured by source (real orange, simulated cyan) with a two-entry legend;
 * the other modes colour the merged cloud as any cloud, on one shared scale. Side by side, the
 * same colours are split back into the two clouds (splitOverlay), each keeping the union of
 * their bounds so both views are centred and framed alike. Pure, unit-tested.
 */
import type { CloudData, ColorMode } from '../../../src-main/api/contract';
import { colorizeCloud, type Colored, type Legend } from '../../viewport/cloud-colors';
import { rgbCss, type Rgb } from '../../../src-common/colormaps';

export const REAL_COLOR: Rgb = [1, 0.55, 0.12];
export const SIM_COLOR: Rgb = [0.2, 0.78, 1];

export interface OverlayCloud {
  cloud: CloudData;
  /** Points of the real cloud (the first ones); the rest are simulated. */
  realCount: number;
  /** The two clouds as loaded. */
  real: CloudData;
  sim: CloudData;
}

/** A cloud with its colours and legend: what one viewport shows. */
export interface ShownCloud {
  cloud: CloudData;
  colors: Float32Array;
  legend: Legend;
}

function concat<T extends Float32Array | Uint8Array | Uint16Array>(a: T, b: T): T {
  const out = new (a.constructor as new (n: number) => T)(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

export function unionBounds(a: CloudData['bounds'], b: CloudData['bounds']): CloudData['bounds'] {
  if (!a) return b;
  if (!b) return a;
  return {
    min: [Math.min(a.min[0], b.min[0]), Math.min(a.min[1], b.min[1]), Math.min(a.min[2], b.min[2])],
    max: [Math.max(a.max[0], b.max[0]), Math.max(a.max[1], b.max[1]), Math.max(a.max[2], b.max[2])],
  };
}

export function overlayClouds(real: CloudData, sim: CloudData): OverlayCloud {
  const realCount = real.positions.length / 3;
  return {
    realCount,
    real,
    sim,
    cloud: {
      source: sim.source,
      totalPoints: real.totalPoints + sim.totalPoints,
      positions: concat(real.positions, sim.positions),
      intensity: concat(real.intensity, sim.intensity),
      time: concat(real.time, sim.time),
      classId: concat(real.classId, sim.classId),
      ring: concat(real.ring, sim.ring),
      bounds: unionBounds(real.bounds, sim.bounds),
      packets: null,
      misses: null,
    },
  };
}

/** Colours and legend of the overlay in a mode: by source in 'class' mode, else as any cloud. */
export function colorizeOverlay(o: OverlayCloud, mode: ColorMode): Colored {
  if (mode !== 'class') return colorizeCloud(o.cloud, mode);
  const n = o.cloud.positions.length / 3;
  const colors = new Float32Array(4 * n);
  for (let i = 0; i < n; i++) {
    const c = i < o.realCount ? REAL_COLOR : SIM_COLOR;
    colors[4 * i] = c[0];
    colors[4 * i + 1] = c[1];
    colors[4 * i + 2] = c[2];
    colors[4 * i + 3] = 1;
  }
  return {
    colors,
    values: null,
    legend: {
      kind: 'classes',
      mode: 'class',
      label: 'Source',
      entries: [
        { id: 1, name: 'real log', color: rgbCss(REAL_COLOR), count: o.realCount },
        { id: 2, name: 'simulated run', color: rgbCss(SIM_COLOR), count: n - o.realCount },
      ],
    },
  };
}

/**
 * The overlay's colours split back into the real and the simulated cloud, for the side-by-side
 * views: the same scale on both sides, and in class mode each side's one source entry.
 */
export function splitOverlay(o: OverlayCloud, colored: Colored): { real: ShownCloud; sim: ShownCloud } {
  const cut = 4 * o.realCount;
  const legendOf = (side: 0 | 1): Legend =>
    colored.legend.kind === 'classes' && colored.legend.label === 'Source' ? { ...colored.legend, entries: [colored.legend.entries[side]!] } : colored.legend;
  return {
    real: { cloud: { ...o.real, bounds: o.cloud.bounds }, colors: colored.colors.slice(0, cut), legend: legendOf(0) },
    sim: { cloud: { ...o.sim, bounds: o.cloud.bounds }, colors: colored.colors.slice(cut), legend: legendOf(1) },
  };
}
