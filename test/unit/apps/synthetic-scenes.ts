/** Constructed clouds for the applications' tests: planes with known geometry, seeded. */
import { RandomStream } from '../../../src-worker/random/stream';
import { SiteClass } from '../../../src-common/classes';

/** Ground z = 0 over [−10, 10]², walls at x = ±10, y = ±10 (0–3 m), a 2 × 1 × 1.5 m box at (3, −2): n points. */
export function roomCloud(n: number, seed: number): { xyz: Float64Array; cls: Uint8Array } {
  const rng = new RandomStream(seed, 0);
  const xyz = new Float64Array(3 * n), cls = new Uint8Array(n);
  const u = (a: number, b: number) => a + (b - a) * rng.next();
  for (let i = 0; i < n; i++) {
    const k = rng.next();
    let x: number, y: number, z: number, c: number = SiteClass.wall;
    if (k < 0.4) { x = u(-10, 10); y = u(-10, 10); z = 0; c = SiteClass.ground; }
    else if (k < 0.55) { x = rng.next() < 0.5 ? -10 : 10; y = u(-10, 10); z = u(0, 3); }
    else if (k < 0.7) { x = u(-10, 10); y = rng.next() < 0.5 ? -10 : 10; z = u(0, 3); }
    else if (k < 0.8) { x = u(2, 4); y = u(-2.5, -1.5); z = 1.5; c = SiteClass.rock; }
    else if (k < 0.9) { x = rng.next() < 0.5 ? 2 : 4; y = u(-2.5, -1.5); z = u(0, 1.5); c = SiteClass.rock; }
    else { x = u(2, 4); y = rng.next() < 0.5 ? -2.5 : -1.5; z = u(0, 1.5); c = SiteClass.rock; }
    xyz[3 * i] = x; xyz[3 * i + 1] = y; xyz[3 * i + 2] = z;
    cls[i] = c;
  }
  return { xyz, cls };
}
