/**
 * How long the Label page takes to select among 2 M points (docs/labeling.md), printed by
 * `thicket bench --only label-select`: each tool's shape is rasterised at screen size, then every
 * point is projected with a perspective camera's view-projection matrix and looked up — the code
 * the page runs (src-common/label-selection.ts). The median of 7 runs per shape; the goal is
 * ≤ 100 ms a selection.
 */
import { combineSelection, projectOntoMask, rasterize, type Point2, type ScreenView, type SelectShape } from '../../src-common/label-selection';

export interface LabelSelectBench {
  points: number;
  screen: [number, number];
  results: { shape: string; ms: number; selected: number }[];
}

const W = 1600;
const H = 900;

type V3 = readonly [number, number, number];
const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: V3, b: V3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const unit = (a: V3): V3 => { const l = Math.hypot(...a); return [a[0] / l, a[1] / l, a[2] / l]; };

/**
 * Babylon's left-handed view × perspective projection (Matrix.LookAtLH, Matrix.PerspectiveFovLH,
 * row vectors, column-major m[]), written out because the host does not load Babylon; the unit
 * test checks it against Babylon's.
 */
export function viewProjectionLH(eye: V3, target: V3, up: V3, fov: number, aspect: number, near: number, far: number): Float64Array {
  const z = unit(sub(target, eye)), x = unit(cross(up, z)), y = cross(z, x);
  const view = [x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0, -dot(x, eye), -dot(y, eye), -dot(z, eye), 1];
  const t = 1 / Math.tan(fov / 2);
  const proj = [t / aspect, 0, 0, 0, 0, t, 0, 0, 0, 0, (far + near) / (far - near), 1, 0, 0, (-2 * far * near) / (far - near), 0];
  const out = new Float64Array(16);
  for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) {
    let s = 0;
    for (let k = 0; k < 4; k++) s += view[4 * r + k]! * proj[4 * k + c]!;
    out[4 * r + c] = s;
  }
  return out;
}

export function benchLabelSelect(points: number, progress: (msg: string) => void): LabelSelectBench {
  // A drive-sized cloud: 200 m × 200 m of ground and vegetation up to 8 m, seeded.
  let seed = 12345;
  const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const positions = new Float32Array(points * 3);
  for (let i = 0; i < points; i++) {
    positions[i * 3] = rand() * 200 - 100;
    positions[i * 3 + 1] = rand() * 200 - 100;
    positions[i * 3 + 2] = rand() ** 3 * 8;
  }
  const view: ScreenView = { matrix: viewProjectionLH([-60, 80, -120], [0, 0, 0], [0, 1, 0], 0.8, W / H, 0.1, 2000), width: W, height: H, centre: [0, 0, 4] };
  const lasso: Point2[] = Array.from({ length: 120 }, (_, k) => {
    const a = (k / 120) * 2 * Math.PI;
    const r = 300 + 120 * Math.sin(5 * a);
    return [800 + r * Math.cos(a), 450 + r * Math.sin(a) * 0.8];
  });
  const shapes: Record<string, SelectShape> = {
    'box (half the screen)': { kind: 'box', x0: 400, y0: 225, x1: 1200, y1: 675 },
    'lasso (120 vertices)': { kind: 'lasso', points: lasso },
    'brush stroke (r 30 px, 40 dabs)': { kind: 'brush', radius: 30, points: Array.from({ length: 40 }, (_, k) => [300 + k * 25, 450 + 100 * Math.sin(k / 6)] as Point2) },
  };
  const selection = new Uint8Array(points);
  const hits = new Uint8Array(points);
  const results: LabelSelectBench['results'] = [];
  for (const [shape, s] of Object.entries(shapes)) {
    progress(`label-select: ${shape} over ${points} points`);
    const times: number[] = [];
    let selected = 0;
    for (let run = 0; run < 7; run++) {
      const t0 = performance.now();
      hits.fill(0);
      projectOntoMask(positions, view, rasterize(s, W, H), hits);
      selected = combineSelection(selection, hits, 'replace');
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    results.push({ shape, ms: Number(times[3]!.toFixed(1)), selected });
  }
  return { points, screen: [W, H], results };
}
