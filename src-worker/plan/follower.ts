/**
 * Path following for a skid-steered vehicle: a carrot `lookaheadM` ahead along the path, a yaw
 * rate proportional to the heading error (capped), and a forward speed that falls with the
 * heading error (cos e) to zero beyond 60° — a skid-steer turns on the spot rather than swinging
 * wide. Deterministic: plain arithmetic on the path and the state.
 *
 *   const f = new PathFollower(spec);
 *   f.setPath(xy);                     // polyline, x0 y0 x1 y1 …
 *   f.step(state, dt)                  // advances state {x, y, yaw} by dt; returns the distance moved
 */
import { wrapAngle, type VehicleSpec } from './vehicle';

export interface VehicleState {
  x: number;
  y: number;
  yaw: number;
}

const TURN_GAIN = 2; // 1/s: yaw rate per radian of heading error
const STOP_TURN = Math.PI / 3;

export class PathFollower {
  private path: Float64Array = new Float64Array(0);
  /** Index of the path segment the vehicle was last closest to (the search only moves forward). */
  private segment = 0;

  constructor(
    private readonly spec: VehicleSpec,
    readonly lookaheadM = 2,
  ) {}

  setPath(xy: Float64Array | null): void {
    this.path = xy ?? new Float64Array(0);
    this.segment = 0;
  }

  get hasPath(): boolean {
    return this.path.length >= 4;
  }

  /** Moves the vehicle for dt seconds toward the carrot (standing still without a path); the distance moved. */
  step(s: VehicleState, dt: number): number {
    if (!this.hasPath) return 0;
    const target = this.carrot(s.x, s.y);
    const e = wrapAngle(Math.atan2(target[1] - s.y, target[0] - s.x) - s.yaw);
    const w = Math.max(-this.spec.maxYawRate, Math.min(this.spec.maxYawRate, TURN_GAIN * e));
    const v = Math.abs(e) >= STOP_TURN ? 0 : this.spec.speed * Math.cos(e);
    // Exact integration of a unicycle over dt (an arc), so the step size does not bend the path.
    let dx: number, dy: number;
    if (Math.abs(w) < 1e-9) {
      dx = v * dt * Math.cos(s.yaw);
      dy = v * dt * Math.sin(s.yaw);
    } else {
      const r = v / w, y1 = s.yaw + w * dt;
      dx = r * (Math.sin(y1) - Math.sin(s.yaw));
      dy = -r * (Math.cos(y1) - Math.cos(s.yaw));
    }
    s.x += dx;
    s.y += dy;
    s.yaw = wrapAngle(s.yaw + w * dt);
    return Math.hypot(dx, dy);
  }

  /** The point lookaheadM along the path beyond the closest point to (x, y) (the path's end if nearer). */
  carrot(x: number, y: number): [number, number] {
    const p = this.path, segs = p.length / 2 - 1;
    // closest point, searching forward a few segments from the last one
    let best = Infinity, bestSeg = this.segment, bestU = 0;
    for (let k = this.segment; k < Math.min(segs, this.segment + 40); k++) {
      const ax = p[2 * k]!, ay = p[2 * k + 1]!, bx = p[2 * k + 2]!, by = p[2 * k + 3]!;
      const lx = bx - ax, ly = by - ay, l2 = lx * lx + ly * ly;
      const u = l2 > 0 ? Math.max(0, Math.min(1, ((x - ax) * lx + (y - ay) * ly) / l2)) : 0;
      const d = Math.hypot(ax + u * lx - x, ay + u * ly - y);
      if (d < best) {
        best = d;
        bestSeg = k;
        bestU = u;
      }
    }
    this.segment = bestSeg;
    let left = this.lookaheadM;
    let k = bestSeg, u = bestU;
    while (k < segs) {
      const ax = p[2 * k]!, ay = p[2 * k + 1]!, bx = p[2 * k + 2]!, by = p[2 * k + 3]!;
      const len = Math.hypot(bx - ax, by - ay);
      const rest = (1 - u) * len;
      if (rest >= left && len > 0) {
        const v = u + left / len;
        return [ax + v * (bx - ax), ay + v * (by - ay)];
      }
      left -= rest;
      k++;
      u = 0;
    }
    return [p[p.length - 2]!, p[p.length - 1]!];
  }
}
