/**
 * Procedural off-road terrain: a seeded smooth height field with a trail, triangulated on a
 * regular grid.
 *
 *   buildTerrain(opts: TerrainOptions): Terrain
 *     opts: { seed, x0, y0, sizeX, sizeY, cell = 0.5, amplitude = 1.5, trailHalfWidth = 1.5 }
 *     → { positions (9 floats / triangle), values (reflectance / triangle), heightAt(x, y),
 *         trailY(x), trailHalfWidth, triangles, onTrail(x, y) }
 *
 * The trail runs along +x, meandering in y around the middle of the area; inside it the
 * ground is smoothed and sunk by 8 cm (two wheel ruts are not modelled). heightAt is the
 * continuous field; the mesh interpolates it linearly per triangle (within a few cm).
 */

/** Seeded 2-D value noise with quintic interpolation, in [−1, 1]. */
export class ValueNoise2 {
  private readonly seed: number;
  constructor(seed: number) {
    this.seed = Math.imul(seed | 0, 0x9e3779b1) ^ 0x85ebca6b;
  }

  private lattice(ix: number, iy: number): number {
    let h = Math.imul(ix | 0, 0x27d4eb2d) ^ Math.imul(iy | 0, 0x165667b1) ^ this.seed;
    h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    h ^= h >>> 16;
    return (h >>> 0) / 2147483647.5 - 1;
  }

  value(x: number, y: number): number {
    const ix = Math.floor(x), iy = Math.floor(y);
    const fx = x - ix, fy = y - iy;
    const sx = fx * fx * fx * (fx * (fx * 6 - 15) + 10), sy = fy * fy * fy * (fy * (fy * 6 - 15) + 10);
    const a = this.lattice(ix, iy), b = this.lattice(ix + 1, iy), c = this.lattice(ix, iy + 1), d = this.lattice(ix + 1, iy + 1);
    return a + (b - a) * sx + (c - a) * sy + (a - b - c + d) * sx * sy;
  }

  /** Fractal sum of `octaves` octaves (frequency ×2, amplitude ×gain each), normalised to about [−1, 1]. */
  fbm(x: number, y: number, octaves: number, gain = 0.5): number {
    let sum = 0, amp = 1, norm = 0, f = 1;
    for (let o = 0; o < octaves; o++) {
      sum += amp * this.value(x * f + o * 17.31, y * f - o * 9.17);
      norm += amp;
      amp *= gain;
      f *= 2;
    }
    return sum / norm;
  }
}

export interface TerrainOptions {
  seed: number;
  x0: number;
  y0: number;
  sizeX: number;
  sizeY: number;
  /** Grid cell (m); default 0.5. */
  cell?: number;
  /** Height amplitude (m); default 1.5. */
  amplitude?: number;
  /** Half width of the trail (m); default 1.5. 0: no trail. */
  trailHalfWidth?: number;
  /** Ground reflectance off and on the trail; default 0.25 and 0.35. */
  reflectance?: number;
  trailReflectance?: number;
}

export interface Terrain {
  positions: Float32Array;
  values: Float32Array;
  triangles: number;
  heightAt(x: number, y: number): number;
  trailY(x: number): number;
  trailHalfWidth: number;
  /** 1 in the middle of the trail, falling to 0 one half-width beyond its edge. */
  onTrail(x: number, y: number): number;
}

/** The terrain's height field without its trail: `amplitude` m of fractal noise plus 4 cm of fine roughness. */
export function noiseHeight(noise: ValueNoise2, amplitude: number): (x: number, y: number) => number {
  return (x, y) => amplitude * noise.fbm(x / 40, y / 40, 5) + 0.04 * noise.value(x * 2.1, y * 2.1);
}

export function buildTerrain(opts: TerrainOptions): Terrain {
  const cell = opts.cell ?? 0.5;
  const amp = opts.amplitude ?? 1.5;
  const half = opts.trailHalfWidth ?? 1.5;
  const refl = opts.reflectance ?? 0.25;
  const trailRefl = opts.trailReflectance ?? 0.35;
  const noise = new ValueNoise2(opts.seed);
  const meander = new ValueNoise2(opts.seed + 101);
  const midY = opts.y0 + opts.sizeY / 2;
  const wander = Math.min(opts.sizeY / 4, 12);
  const trailY = (x: number) => midY + wander * meander.fbm(x / 60, 0.5, 3);
  const onTrail = (x: number, y: number) => {
    if (half <= 0) return 0;
    const d = Math.abs(y - trailY(x));
    return d <= half ? 1 : d >= 2 * half ? 0 : 1 - (d - half) / half;
  };
  const raw = noiseHeight(noise, amp);
  const heightAt = (x: number, y: number) => {
    const w = onTrail(x, y);
    if (w === 0) return raw(x, y);
    const smooth = amp * noise.fbm(x / 40, trailY(x) / 40, 2);
    return (1 - w) * raw(x, y) + w * (smooth - 0.08);
  };

  const nx = Math.max(1, Math.ceil(opts.sizeX / cell)), ny = Math.max(1, Math.ceil(opts.sizeY / cell));
  const dx = opts.sizeX / nx, dy = opts.sizeY / ny;
  const h = new Float64Array((nx + 1) * (ny + 1));
  for (let j = 0; j <= ny; j++) for (let i = 0; i <= nx; i++) h[j * (nx + 1) + i] = heightAt(opts.x0 + i * dx, opts.y0 + j * dy);
  const triangles = 2 * nx * ny;
  const positions = new Float32Array(9 * triangles);
  const values = new Float32Array(triangles);
  let t = 0;
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      const x0 = opts.x0 + i * dx, x1 = x0 + dx, y0 = opts.y0 + j * dy, y1 = y0 + dy;
      const h00 = h[j * (nx + 1) + i]!, h10 = h[j * (nx + 1) + i + 1]!, h01 = h[(j + 1) * (nx + 1) + i]!, h11 = h[(j + 1) * (nx + 1) + i + 1]!;
      const r = onTrail(x0 + dx / 2, y0 + dy / 2) > 0.5 ? trailRefl : refl;
      // alternate the diagonal so the mesh has no preferred direction
      if ((i + j) & 1) {
        positions.set([x0, y0, h00, x1, y0, h10, x1, y1, h11], 9 * t); values[t++] = r;
        positions.set([x0, y0, h00, x1, y1, h11, x0, y1, h01], 9 * t); values[t++] = r;
      } else {
        positions.set([x0, y0, h00, x1, y0, h10, x0, y1, h01], 9 * t); values[t++] = r;
        positions.set([x1, y0, h10, x1, y1, h11, x0, y1, h01], 9 * t); values[t++] = r;
      }
    }
  }
  return { positions, values, triangles, heightAt, trailY, trailHalfWidth: half, onTrail };
}
