/**
 * The ground under a study: a height field sampled from the scene's own terrain triangles (the
 * instances of class ground, or of ground-kind primitives), never from the simulated points —
 * the cost rule needs each point's height above the true ground (003 §3.5.3).
 *
 *   groundFromScene(data, area, res): GroundField   nodes every `res` metres over `area`
 *   field.heightAt(x, y)                              bilinear between nodes, clamped at the edges
 *
 * Nodes no ground triangle covers take the height of the nearest covered node (breadth-first
 * over the node grid); a scene without ground gets a flat field at z = 0.
 */
import { INST_FLOATS, INST_INTS, InstInt, PRIM_INTS, PrimInt } from '../scene/scene-data';
import { type SceneData } from '../../src-common/scene-data';
import { ElementKind } from '../scene/scene-query';
import { SiteClass } from '../../src-common/classes';

export interface Area {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export class GroundField {
  constructor(
    readonly x0: number,
    readonly y0: number,
    readonly res: number,
    readonly nx: number,
    readonly ny: number,
    /** nx × ny node heights, row-major (j · nx + i at x0 + i·res, y0 + j·res). */
    readonly z: Float32Array,
  ) {}

  heightAt(x: number, y: number): number {
    const fx = Math.min(this.nx - 1, Math.max(0, (x - this.x0) / this.res));
    const fy = Math.min(this.ny - 1, Math.max(0, (y - this.y0) / this.res));
    const i = Math.min(this.nx - 2, Math.floor(fx)), j = Math.min(this.ny - 2, Math.floor(fy));
    if (i < 0 || j < 0) return this.z[0]!;
    const u = fx - i, v = fy - j, z = this.z, n = this.nx;
    const a = z[j * n + i]!, b = z[j * n + i + 1]!, c = z[(j + 1) * n + i]!, d = z[(j + 1) * n + i + 1]!;
    return a + (b - a) * u + (c - a) * v + (a - b - c + d) * u * v;
  }
}

export function flatGround(area: Area, z = 0): GroundField {
  return new GroundField(area.x0, area.y0, Math.max(area.x1 - area.x0, area.y1 - area.y0, 1), 2, 2, new Float32Array(4).fill(z));
}

function isGroundInstance(data: SceneData, inst: number): boolean {
  const p = data.instInts[inst * INST_INTS + InstInt.primitive]!;
  const kind = data.primInts[p * PRIM_INTS + PrimInt.kind];
  if (kind === ElementKind.Ground) return true;
  return kind === ElementKind.Surface && data.instInts[inst * INST_INTS + InstInt.classId] === SiteClass.ground;
}

export function groundFromScene(data: SceneData, area: Area, res: number): GroundField {
  if (!(res > 0)) throw new Error('ground field: resolution must be positive');
  const nx = Math.max(2, Math.ceil((area.x1 - area.x0) / res) + 1), ny = Math.max(2, Math.ceil((area.y1 - area.y0) / res) + 1);
  const z = new Float32Array(nx * ny).fill(NaN);
  const w = new Float64Array(9);
  let covered = 0;
  for (let inst = 0; inst < data.instanceCount; inst++) {
    if (!isGroundInstance(data, inst)) continue;
    const p = data.instInts[inst * INST_INTS + InstInt.primitive]!;
    const first = data.primInts[p * PRIM_INTS + PrimInt.first]!, count = data.primInts[p * PRIM_INTS + PrimInt.count]!;
    const m = data.instXform, mo = inst * INST_FLOATS;
    for (let t = first; t < first + count; t++) {
      for (let v = 0; v < 3; v++) {
        const s = 9 * t + 3 * v;
        const lx = data.triVerts[s]!, ly = data.triVerts[s + 1]!, lz = data.triVerts[s + 2]!;
        w[3 * v] = m[mo]! * lx + m[mo + 1]! * ly + m[mo + 2]! * lz + m[mo + 9]!;
        w[3 * v + 1] = m[mo + 3]! * lx + m[mo + 4]! * ly + m[mo + 5]! * lz + m[mo + 10]!;
        w[3 * v + 2] = m[mo + 6]! * lx + m[mo + 7]! * ly + m[mo + 8]! * lz + m[mo + 11]!;
      }
      covered += rasterise(w, area.x0, area.y0, res, nx, ny, z);
    }
  }
  if (covered === 0) return flatGround(area);
  fillGaps(z, nx, ny);
  return new GroundField(area.x0, area.y0, res, nx, ny, z);
}

/** Writes the triangle's height at every node inside it (the highest where triangles overlap); returns nodes newly covered. */
function rasterise(w: Float64Array, x0: number, y0: number, res: number, nx: number, ny: number, z: Float32Array): number {
  const ax = w[0]!, ay = w[1]!, az = w[2]!, bx = w[3]!, by = w[4]!, bz = w[5]!, cx = w[6]!, cy = w[7]!, cz = w[8]!;
  const det = (by - cy) * (ax - cx) + (cx - bx) * (ay - cy);
  if (Math.abs(det) < 1e-12) return 0; // vertical or degenerate: no height to give
  const i0 = Math.max(0, Math.ceil((Math.min(ax, bx, cx) - x0) / res - 1e-9)), i1 = Math.min(nx - 1, Math.floor((Math.max(ax, bx, cx) - x0) / res + 1e-9));
  const j0 = Math.max(0, Math.ceil((Math.min(ay, by, cy) - y0) / res - 1e-9)), j1 = Math.min(ny - 1, Math.floor((Math.max(ay, by, cy) - y0) / res + 1e-9));
  let added = 0;
  const eps = -1e-9;
  for (let j = j0; j <= j1; j++) {
    const y = y0 + j * res;
    for (let i = i0; i <= i1; i++) {
      const x = x0 + i * res;
      const l1 = ((by - cy) * (x - cx) + (cx - bx) * (y - cy)) / det;
      const l2 = ((cy - ay) * (x - cx) + (ax - cx) * (y - cy)) / det;
      const l3 = 1 - l1 - l2;
      if (l1 < eps || l2 < eps || l3 < eps) continue;
      const h = l1 * az + l2 * bz + l3 * cz;
      const k = j * nx + i;
      const old = z[k]!;
      if (Number.isNaN(old)) added++;
      if (Number.isNaN(old) || h > old) z[k] = h;
    }
  }
  return added;
}

/** Uncovered nodes (NaN) take the height of the nearest covered node in breadth-first order. */
function fillGaps(z: Float32Array, nx: number, ny: number): void {
  const queue = new Int32Array(nx * ny);
  let head = 0, tail = 0;
  for (let k = 0; k < z.length; k++) if (!Number.isNaN(z[k]!)) queue[tail++] = k;
  while (head < tail) {
    const k = queue[head++]!;
    const i = k % nx, j = (k - i) / nx;
    const visit = (n: number) => {
      if (Number.isNaN(z[n]!)) {
        z[n] = z[k]!;
        queue[tail++] = n;
      }
    };
    if (i > 0) visit(k - 1);
    if (i < nx - 1) visit(k + 1);
    if (j > 0) visit(k - nx);
    if (j < ny - 1) visit(k + nx);
  }
}
