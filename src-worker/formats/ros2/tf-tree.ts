/**
 * The tf tree of a bag as it streams: each parent ← child edge is either static (/tf_static) or
 * a series of timed samples (/tf, nav_msgs/Odometry). The sensor pose at time t is the chain
 * from a fixed frame down to the cloud's frame_id, each dynamic edge interpolated at t.
 *
 * The fixed frame is `worldFrame` when given (map, odom, ...), else the root of the chain; a
 * chain in which nothing moves (static edges only) still resolves, to a constant pose. When
 * the cloud's frame is not in the tree at all (a bag whose tf stops at base_link and has no
 * base_link → lidar transform), the first moving child frame seen stands in for the sensor, i.e.
 * the sensor is taken to sit at that frame's origin.
 */
import { composePoses } from '../../geometry/trajectory';
import { PoseSeries } from './pose-interpolation';

interface Edge {
  parent: string;
  child: string;
  fixed: Float64Array | null;
  series: PoseSeries | null;
}

const MAX_DEPTH = 64;

export interface ChainInfo {
  /** The fixed frame the pose is given in. */
  world: string;
  /** The frame whose pose it is (the cloud's, or the stand-in). */
  frame: string;
  /** Edges from the world frame down. */
  edges: Edge[];
  /** True when some edge moves. */
  dynamic: boolean;
}

export class TfTree {
  /** Edge by child frame (tf allows one parent per frame; a later parent replaces an earlier one). */
  private byChild = new Map<string, Edge>();
  private firstMovingChild: string | null = null;
  private version = 0;
  private chainCache = new Map<string, { version: number; chain: ChainInfo | null }>();

  constructor(private readonly worldFrame?: string) {}

  get frames(): number {
    return this.byChild.size;
  }

  addStatic(parent: string, child: string, pose: ArrayLike<number>): void {
    if (!validPose(pose) || parent === child) return;
    const e = this.edge(parent, child);
    const n = Math.hypot(pose[3]!, pose[4]!, pose[5]!, pose[6]!);
    e.fixed = Float64Array.from([pose[0]!, pose[1]!, pose[2]!, pose[3]! / n, pose[4]! / n, pose[5]! / n, pose[6]! / n]);
    e.series = null;
    this.version++;
  }

  /** A timed sample; returns false when the pose was unusable (non-finite, zero quaternion). */
  addSample(parent: string, child: string, t: number, pose: ArrayLike<number>): boolean {
    if (parent === child) return false;
    const e = this.edge(parent, child);
    if (e.fixed) return false; // a static transform wins: tf never moves it
    if (!e.series) {
      e.series = new PoseSeries();
      this.version++;
    }
    const ok = e.series.add(t, pose);
    if (ok) this.firstMovingChild ??= child;
    return ok;
  }

  /** The chain for a cloud in `frame`, or null when no fixed frame can be reached. */
  chain(frame: string): ChainInfo | null {
    const cached = this.chainCache.get(frame);
    if (cached && cached.version === this.version) return cached.chain;
    let chain = this.walk(frame);
    if (!chain && this.firstMovingChild && !this.byChild.has(frame)) chain = this.walk(this.firstMovingChild);
    this.chainCache.set(frame, { version: this.version, chain });
    return chain;
  }

  /**
   * Latest time up to which every moving edge of the chain has samples: a cloud stamped before
   * it can be posed without clamping. −∞ when a moving edge has none, and when nothing moves yet
   * (a bag's /tf_static comes first; the moving edge above it, say odom ← base_link, may still
   * come, so such a cloud waits its look-ahead like one without tf).
   */
  coveredUntil(frame: string): number {
    const c = this.chain(frame);
    if (!c || !c.dynamic) return -Infinity;
    let t = Infinity;
    for (const e of c.edges) if (e.series) t = Math.min(t, e.series.last);
    return t;
  }

  /**
   * world ← frame at time t into out (7 numbers); false when no fixed frame can be reached. A
   * chain of static edges only (/tf_static: a sensor bolted to a fixed frame) is a pose too, the
   * same at every t.
   */
  poseAt(frame: string, t: number, out: Float64Array): boolean {
    const c = this.chain(frame);
    if (!c) return false;
    out.set([0, 0, 0, 0, 0, 0, 1]);
    const step = new Float64Array(7);
    const acc = new Float64Array(7);
    for (const e of c.edges) {
      if (e.fixed) step.set(e.fixed);
      else if (!e.series!.sample(t, step, 0)) return false;
      composePoses(out, 0, step, 0, acc, 0);
      out.set(acc);
    }
    return true;
  }

  private edge(parent: string, child: string): Edge {
    let e = this.byChild.get(child);
    if (!e || e.parent !== parent) {
      e = { parent, child, fixed: null, series: null };
      this.byChild.set(child, e);
      this.version++;
    }
    return e;
  }

  /** Edges from frame up to the world frame (or the root), top first; null when none. */
  private walk(frame: string): ChainInfo | null {
    const up: Edge[] = [];
    const seen = new Set<string>([frame]);
    let f = frame;
    while (f !== this.worldFrame) {
      const e = this.byChild.get(f);
      if (!e) break;
      if (seen.has(e.parent) || up.length >= MAX_DEPTH) return null; // a cycle: no fixed frame
      seen.add(e.parent);
      up.push(e);
      f = e.parent;
    }
    if (up.length === 0) return null;
    if (this.worldFrame !== undefined && f !== this.worldFrame) return null;
    const edges = up.reverse();
    return { world: f, frame, edges, dynamic: edges.some((e) => e.series !== null) };
  }
}

function validPose(p: ArrayLike<number>): boolean {
  for (let k = 0; k < 7; k++) if (!Number.isFinite(p[k]!)) return false;
  return Math.hypot(p[3]!, p[4]!, p[5]!, p[6]!) > 1e-9;
}
