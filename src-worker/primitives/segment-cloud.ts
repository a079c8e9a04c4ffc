/**
 * The point cloud segmentation works on: every hit of a drive log in the world frame, thinned to
 * one point per `cellSize` cube (a long log has 10⁷–10⁸ hits; segments need shape, not density),
 * each with the ray's ground truth (object and class id, 0 where the log has none) and the
 * vehicle's direction of travel when it was seen (what the object pose's yaw is chosen by).
 *
 *   const b = new SegmentCloudBuilder({ cellSize: 0.1 });
 *   for (const chunk of chunks) b.addChunk(chunk);    // chunks in packet order
 *   const cloud = b.finish();
 *
 * Deterministic: a cell keeps the first hit that fell in it (packet order, ray order), so the
 * same log gives the same cloud. Points further than ≈ 52 km (x, y) or ≈ 400 m (z) from the
 * first hit, at 0.1 m cells, do not fit the cell key and are dropped (counted in `dropped`).
 */
import { POSE_STRIDE, type PacketChunk } from '../../src-common/packets';

export type SegmentLogChunk = Pick<PacketChunk, 'packetCount' | 'packetPose' | 'rayStart' | 'rayDir' | 'rayRange' | 'rayObject' | 'rayClass'>;

export interface SegmentCloud {
  count: number;
  /** World x, y, z per point. */
  positions: Float64Array;
  /** Ground truth of the ray: object id (0 = none/unknown) and class id. */
  objectId: Uint32Array;
  classId: Uint8Array;
  /** Unit direction of travel (x, y) of the sensor when the point was seen. */
  travel: Float32Array;
  /** Whether any point carries an object id (a labelled or simulated log). */
  hasObjectIds: boolean;
  /** Hits seen, and hits dropped (outside the cell key's range, or not finite). */
  hits: number;
  dropped: number;
}

export interface SegmentCloudOptions {
  /** Thinning cube (m); default 0.1 (the fit's default cellSize). */
  cellSize?: number;
  /** Travel is the displacement over the last `travelWindow` metres of the path; default 1. */
  travelWindow?: number;
}

// Cell key: x, y in 20 bits each, z in 13 (53 bits: exact in a double).
const XY_BITS = 2 ** 20, Z_BITS = 2 ** 13;

export class SegmentCloudBuilder {
  private readonly cell: number;
  private readonly window: number;
  private readonly keys = new Map<number, number>();
  private pos: Float64Array = new Float64Array(3 * 4096);
  private obj: Uint32Array = new Uint32Array(4096);
  private cls: Uint8Array = new Uint8Array(4096);
  private trv: Float32Array = new Float32Array(2 * 4096);
  private n = 0;
  private hits = 0;
  private dropped = 0;
  private anyObject = false;
  private ox = NaN;
  private oy = NaN;
  private oz = NaN;
  /** Path anchor (last position ≥ window behind) and the last travel direction. */
  private ax = NaN;
  private ay = NaN;
  private tx = 1;
  private ty = 0;
  private haveTravel = false;

  constructor(opts: SegmentCloudOptions = {}) {
    this.cell = opts.cellSize ?? 0.1;
    this.window = opts.travelWindow ?? 1;
    if (!(this.cell > 0)) throw new Error(`segment cloud: cell size ${this.cell} must be > 0`);
    if (!(this.window > 0)) throw new Error(`segment cloud: travel window ${this.window} must be > 0`);
  }

  /** Adds a chunk's hits (chunks in packet order: travel follows the path across chunks). */
  addChunk(c: SegmentLogChunk): void {
    const pose = c.packetPose, dir = c.rayDir, range = c.rayRange, start = c.rayStart;
    for (let p = 0; p < c.packetCount; p++) {
      const o = p * POSE_STRIDE;
      const px = pose[o]!, py = pose[o + 1]!, pz = pose[o + 2]!;
      const qx = pose[o + 3]!, qy = pose[o + 4]!, qz = pose[o + 5]!, qw = pose[o + 6]!;
      this.updateTravel(px, py, qx, qy, qz, qw);
      for (let i = start[p]!; i < start[p + 1]!; i++) {
        const r = range[i]!;
        if (r !== r) continue;
        this.hits++;
        const x = dir[3 * i]! * r, y = dir[3 * i + 1]! * r, z = dir[3 * i + 2]! * r;
        const ux = 2 * (qy * z - qz * y), uy = 2 * (qz * x - qx * z), uz = 2 * (qx * y - qy * x);
        const wx = x + qw * ux + (qy * uz - qz * uy) + px;
        const wy = y + qw * uy + (qz * ux - qx * uz) + py;
        const wz = z + qw * uz + (qx * uy - qy * ux) + pz;
        this.add(wx, wy, wz, c.rayObject[i] ?? 0, c.rayClass[i] ?? 0);
      }
    }
  }

  /**
   * Travel = the displacement since the anchor, once it is ≥ 5 % of the window (a standing
   * vehicle keeps its last direction); before the vehicle has moved, the sensor's heading
   * (its x axis in the x-y plane: vehicles drive forwards).
   */
  private updateTravel(px: number, py: number, qx: number, qy: number, qz: number, qw: number): void {
    if (this.ax !== this.ax) {
      this.ax = px; this.ay = py;
    }
    const dx = px - this.ax, dy = py - this.ay, d = Math.hypot(dx, dy);
    if (d >= 0.05 * this.window) {
      this.tx = dx / d; this.ty = dy / d;
      this.haveTravel = true;
    } else if (!this.haveTravel) {
      const hx = 1 - 2 * (qy * qy + qz * qz), hy = 2 * (qx * qy + qw * qz), h = Math.hypot(hx, hy);
      if (h > 1e-9) {
        this.tx = hx / h; this.ty = hy / h;
      }
    }
    if (d >= this.window) {
      this.ax = px; this.ay = py;
    }
  }

  private add(x: number, y: number, z: number, obj: number, cls: number): void {
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) {
      this.dropped++;
      return;
    }
    if (this.ox !== this.ox) {
      // The first hit at a cell's centre (not on its corner, where rounding would split its neighbours).
      this.ox = x - this.cell / 2; this.oy = y - this.cell / 2; this.oz = z - this.cell / 2;
    }
    const i = Math.floor((x - this.ox) / this.cell) + XY_BITS / 2;
    const j = Math.floor((y - this.oy) / this.cell) + XY_BITS / 2;
    const k = Math.floor((z - this.oz) / this.cell) + Z_BITS / 2;
    if (i < 0 || i >= XY_BITS || j < 0 || j >= XY_BITS || k < 0 || k >= Z_BITS) {
      this.dropped++;
      return;
    }
    const key = (i * XY_BITS + j) * Z_BITS + k;
    if (this.keys.has(key)) return;
    this.keys.set(key, this.n);
    if (this.n === this.obj.length) this.grow();
    const n = this.n++;
    this.pos[3 * n] = x; this.pos[3 * n + 1] = y; this.pos[3 * n + 2] = z;
    this.obj[n] = obj;
    this.cls[n] = cls;
    this.trv[2 * n] = this.tx; this.trv[2 * n + 1] = this.ty;
    if (obj !== 0) this.anyObject = true;
  }

  private grow(): void {
    const cap = this.obj.length * 2;
    const pos = new Float64Array(3 * cap); pos.set(this.pos); this.pos = pos;
    const obj = new Uint32Array(cap); obj.set(this.obj); this.obj = obj;
    const cls = new Uint8Array(cap); cls.set(this.cls); this.cls = cls;
    const trv = new Float32Array(2 * cap); trv.set(this.trv); this.trv = trv;
  }

  finish(): SegmentCloud {
    const n = this.n;
    return {
      count: n,
      positions: this.pos.slice(0, 3 * n),
      objectId: this.obj.slice(0, n),
      classId: this.cls.slice(0, n),
      travel: this.trv.slice(0, 2 * n),
      hasObjectIds: this.anyObject,
      hits: this.hits,
      dropped: this.dropped,
    };
  }
}

/** A cloud from world points directly (tests, clouds without a log): one travel direction for all. */
export function cloudFromPoints(positions: ArrayLike<number>, travel: [number, number] = [1, 0], objectId?: ArrayLike<number>, classId?: ArrayLike<number>): SegmentCloud {
  const n = Math.floor(positions.length / 3);
  const t = Math.hypot(travel[0], travel[1]) || 1;
  const trv = new Float32Array(2 * n);
  for (let i = 0; i < n; i++) {
    trv[2 * i] = travel[0] / t;
    trv[2 * i + 1] = travel[1] / t;
  }
  const obj = objectId ? Uint32Array.from(objectId) : new Uint32Array(n);
  return {
    count: n,
    positions: Float64Array.from(positions),
    objectId: obj,
    classId: classId ? Uint8Array.from(classId) : new Uint8Array(n),
    travel: trv,
    hasObjectIds: obj.some((v) => v !== 0),
    hits: n,
    dropped: 0,
  };
}
