/** Bounds and grid spacing for the viewport (pure; unit-tested). */
import type { Bounds } from '../../src-main/api/contract';

/** A "nice" grid step (1, 2 or 5 × 10^k) giving roughly `lines` lines across `extent`. */
export function niceStep(extent: number, lines = 12): number {
  const raw = Math.max(extent, 1e-6) / lines;
  const p = 10 ** Math.floor(Math.log10(raw));
  const m = raw / p;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/** Bounds of x,y,z triples, ignoring non-finite values; null when there are none. */
export function computeBounds(positions: Float32Array): Bounds | null {
  const n = Math.floor(positions.length / 3);
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  let any = false;
  for (let i = 0; i < n; i++) {
    const x = positions[i * 3]!;
    const y = positions[i * 3 + 1]!;
    const z = positions[i * 3 + 2]!;
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) continue;
    any = true;
    if (x < min[0]) min[0] = x;
    if (y < min[1]) min[1] = y;
    if (z < min[2]) min[2] = z;
    if (x > max[0]) max[0] = x;
    if (y > max[1]) max[1] = y;
    if (z > max[2]) max[2] = z;
  }
  return any ? { min, max } : null;
}
