/**
 * Exact analytic scenes for the physics validations: vertical cylinders (grass stems, rods) and
 * axis-aligned rectangles (a background board), intersected in closed form. The validation
 * stands are analytic in the paper too (randomly placed uniform vertical cylinders, 003 §3.4.1),
 * so this is the stand itself rather than a tessellation of it; the scenes are small (a beam's
 * corridor through a stand, or a 9-rod bench), so a linear scan is the right index.
 */
import { ElementKind, type ElementHit, type SceneQuery, type SurfaceHit } from '../scene/scene-query';

export interface VerticalCylinder {
  x: number;
  y: number;
  radius: number;
  z0: number;
  z1: number;
  reflectance: number;
  objectId: number;
  classId: number;
}

/** A rectangle perpendicular to the x axis at `x`, spanning [y0, y1] × [z0, z1]. */
export interface BoardX {
  x: number;
  y0: number;
  y1: number;
  z0: number;
  z1: number;
  reflectance: number;
  objectId: number;
  classId: number;
}

export class AnalyticScene implements SceneQuery {
  private readonly cyl: Float64Array; // x, y, r², z0, z1 per cylinder
  private readonly element: ElementHit = {
    kind: ElementKind.Surface, t: 0, mahalanobis: 0, pHit: 1, objectId: 0, classId: 0, muT: 0, varT: 0,
    mean: new Float64Array(3), chol: new Float64Array(6),
  };
  private readonly hit: SurfaceHit = { t: 0, nx: 0, ny: 0, nz: 0, reflectance: 0, objectId: 0, classId: 0 };

  constructor(readonly cylinders: readonly VerticalCylinder[], readonly boards: readonly BoardX[] = []) {
    this.cyl = new Float64Array(cylinders.length * 5);
    cylinders.forEach((c, i) => this.cyl.set([c.x, c.y, c.radius * c.radius, c.z0, c.z1], 5 * i));
  }

  closestSurface(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number, out: SurfaceHit): boolean {
    let best = Infinity, which = -1, board = false;
    const a = dx * dx + dy * dy;
    const cyl = this.cyl;
    if (a > 1e-18) {
      for (let i = 0, n = this.cylinders.length; i < n; i++) {
        const ex = ox - cyl[5 * i]!, ey = oy - cyl[5 * i + 1]!;
        const b = ex * dx + ey * dy;
        const c = ex * ex + ey * ey - cyl[5 * i + 2]!;
        const disc = b * b - a * c;
        if (disc < 0) continue;
        const sq = Math.sqrt(disc);
        // outer surface only: the entering root, or the exiting one from inside a stem
        let t = (-b - sq) / a;
        if (!(t > tmin)) t = (-b + sq) / a;
        if (!(t > tmin) || t > tmax || t >= best) continue;
        const z = oz + t * dz;
        if (z < cyl[5 * i + 3]! || z > cyl[5 * i + 4]!) continue;
        best = t;
        which = i;
      }
    }
    if (Math.abs(dx) > 1e-18) {
      this.boards.forEach((p, i) => {
        const t = (p.x - ox) / dx;
        if (!(t > tmin) || t > tmax || t >= best) return;
        const y = oy + t * dy, z = oz + t * dz;
        if (y < p.y0 || y > p.y1 || z < p.z0 || z > p.z1) return;
        best = t;
        which = i;
        board = true;
      });
    }
    if (which < 0) return false;
    out.t = best;
    if (board) {
      const p = this.boards[which]!;
      out.nx = dx > 0 ? -1 : 1; out.ny = 0; out.nz = 0;
      out.reflectance = p.reflectance; out.objectId = p.objectId; out.classId = p.classId;
    } else {
      const c = this.cylinders[which]!;
      let nx = ox + best * dx - c.x, ny = oy + best * dy - c.y;
      const l = Math.hypot(nx, ny);
      nx /= l; ny /= l;
      if (nx * dx + ny * dy > 0) { nx = -nx; ny = -ny; }
      out.nx = nx; out.ny = ny; out.nz = 0;
      out.reflectance = c.reflectance; out.objectId = c.objectId; out.classId = c.classId;
    }
    return true;
  }

  /** Opaque surfaces as elements: the closest one, with p_hit = 1 (hybrid semantics of a mesh). */
  traverse(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number, visit: (hit: ElementHit) => boolean): void {
    const h = this.hit;
    if (!this.closestSurface(ox, oy, oz, dx, dy, dz, tmin, tmax, h)) return;
    const e = this.element;
    e.t = h.t; e.muT = h.t; e.varT = 0; e.objectId = h.objectId; e.classId = h.classId;
    visit(e);
  }
}
