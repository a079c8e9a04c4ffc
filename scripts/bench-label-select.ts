/**
 * How long the Label page takes to select among 2 M points (docs/labeling.md): each tool's shape
 * is rasterised at screen size, then every point is projected with a perspective camera's
 * view-projection matrix and looked up (src-renderer/components/labels/selection-math.ts, the
 * code the page runs). Prints the median of 7 runs per shape; the goal is ≤ 100 ms.
 *
 *   npx tsx scripts/bench-label-select.ts [--points 2000000] [--json]
 */
import { Matrix, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { combineSelection, projectOntoMask, rasterize, type Point2, type ScreenView, type SelectShape } from '../src-renderer/components/labels/selection-math';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const n = arg('--points', 2_000_000);
const W = 1600;
const H = 900;

// A drive-sized cloud: 200 m × 200 m of ground and vegetation up to 8 m, seeded.
let seed = 12345;
const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
const positions = new Float32Array(n * 3);
for (let i = 0; i < n; i++) {
  positions[i * 3] = rand() * 200 - 100;
  positions[i * 3 + 1] = rand() * 200 - 100;
  positions[i * 3 + 2] = rand() ** 3 * 8;
}
const vp = Matrix.LookAtLH(new Vector3(-60, 80, -120), Vector3.Zero(), Vector3.Up()).multiply(Matrix.PerspectiveFovLH(0.8, W / H, 0.1, 2000));
const view: ScreenView = { matrix: Float64Array.from(vp.m), width: W, height: H, centre: [0, 0, 4] };

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

const selection = new Uint8Array(n);
const hits = new Uint8Array(n);
const results: { shape: string; ms: number; selected: number }[] = [];
for (const [name, shape] of Object.entries(shapes)) {
  const times: number[] = [];
  let selected = 0;
  for (let run = 0; run < 7; run++) {
    const t0 = performance.now();
    hits.fill(0);
    projectOntoMask(positions, view, rasterize(shape, W, H), hits);
    selected = combineSelection(selection, hits, 'replace');
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  results.push({ shape: name, ms: Number(times[3]!.toFixed(1)), selected });
}

if (process.argv.includes('--json')) console.log(JSON.stringify({ points: n, screen: [W, H], results }));
else {
  console.log(`Label selection over ${n.toLocaleString('en')} points, ${W} × ${H} screen (median of 7):`);
  for (const r of results) console.log(`  ${r.shape.padEnd(34)} ${String(r.ms).padStart(7)} ms   ${r.selected.toLocaleString('en')} selected`);
}
