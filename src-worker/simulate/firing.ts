/**
 * One pulse being simulated, and where its returns go.
 *
 * Frames: each ray is cast from the sensor pose at its own firing time (motion distortion). The
 * packet stores the sensor pose at the packet's start time, and each return is written in THAT
 * frame: the world point is transformed back into the packet frame, so that
 * `packetPose · (range · dir)` reproduces the world point. A miss stores the firing direction
 * rotated into the packet frame. When the firing pose is the packet pose and the beam starts at
 * the sensor origin, returns along the beam axis keep the input direction exactly.
 */
import { ChunkBuilder } from '../formats/chunk-builder';
import { applyPose, applyPoseInverse, rotateVector, rotateVectorInverse } from '../geometry/trajectory';
import type { SimulationStats } from './types';

export class Firing {
  /** Unit beam axis in the sensor frame. */
  sx = 0;
  sy = 0;
  sz = 1;
  /** Beam origin in the sensor frame. */
  bx = 0;
  by = 0;
  bz = 0;
  /** World origin and unit axis. */
  ox = 0;
  oy = 0;
  oz = 0;
  dx = 0;
  dy = 0;
  dz = 1;
  /** World ← sensor at the firing time. */
  readonly pose = new Float64Array(7);
  /** True when the firing pose equals the packet pose and the origin is the sensor's. */
  aligned = true;
  ring = 0;
  /** Firing time relative to the packet's time, and the packet's time on the trajectory clock. */
  time = 0;
  packetTime = 0;

  /** Set the world origin/axis from the sensor-frame values and the pose. */
  place(): void {
    const tmp = SCRATCH;
    applyPose(this.pose, 0, this.bx, this.by, this.bz, tmp, 0);
    this.ox = tmp[0]!; this.oy = tmp[1]!; this.oz = tmp[2]!;
    rotateVector(this.pose, 0, this.sx, this.sy, this.sz, tmp, 0);
    this.dx = tmp[0]!; this.dy = tmp[1]!; this.dz = tmp[2]!;
  }
}

const SCRATCH = new Float64Array(3);

/** Receives the returns of one firing and writes them into the chunk in the packet frame. */
export class ReturnEmitter {
  private builder: ChunkBuilder | null = null;
  private readonly packetPose = new Float64Array(7);
  private firing: Firing | null = null;
  private count = 0;
  private readonly tmp = new Float64Array(3);
  stats: SimulationStats | null = null;

  beginPacket(builder: ChunkBuilder, packetPose: ArrayLike<number>): void {
    this.builder = builder;
    for (let i = 0; i < 7; i++) this.packetPose[i] = packetPose[i]!;
  }

  beginFiring(f: Firing): void {
    this.firing = f;
    this.count = 0;
  }

  /** Returns emitted so far in this firing. */
  get returns(): number {
    return this.count;
  }

  /** A return at `range` along the beam axis (what a real sensor reports). */
  alongAxis(range: number, intensity: number, objectId: number, classId: number): void {
    const f = this.firing!;
    if (f.aligned) {
      this.push(f.sx, f.sy, f.sz, range, intensity, objectId, classId);
      return;
    }
    this.point(f.ox + range * f.dx, f.oy + range * f.dy, f.oz + range * f.dz, intensity, objectId, classId);
  }

  /** A return at a world point (e.g. a sample of N(μ, Σ)). */
  point(wx: number, wy: number, wz: number, intensity: number, objectId: number, classId: number): void {
    const t = this.tmp;
    applyPoseInverse(this.packetPose, 0, wx, wy, wz, t, 0);
    const r = Math.sqrt(t[0]! * t[0]! + t[1]! * t[1]! + t[2]! * t[2]!);
    if (!(r > 0)) return; // a point at the sensor origin carries no direction
    this.push(t[0]! / r, t[1]! / r, t[2]! / r, r, intensity, objectId, classId);
  }

  /** Close the firing: a pulse with no return is written as a miss. */
  endFiring(): void {
    const f = this.firing!;
    if (this.count === 0) {
      if (f.aligned) {
        this.builder!.pushRay(f.sx, f.sy, f.sz, NaN, 0, f.time, f.ring, 0, 0, 0);
      } else {
        const t = this.tmp;
        rotateVectorInverse(this.packetPose, 0, f.dx, f.dy, f.dz, t, 0);
        this.builder!.pushRay(t[0]!, t[1]!, t[2]!, NaN, 0, f.time, f.ring, 0, 0, 0);
      }
      if (this.stats) this.stats.misses++;
    }
    this.firing = null;
  }

  private push(dx: number, dy: number, dz: number, range: number, intensity: number, objectId: number, classId: number): void {
    const f = this.firing!;
    this.builder!.pushRay(dx, dy, dz, range, intensity, f.time, f.ring, this.count, objectId, classId);
    this.count++;
    if (this.stats) this.stats.hits++;
  }
}
