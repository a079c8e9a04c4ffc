/**
 * Growable struct-of-arrays writer that produces a PacketChunk. Preallocated typed arrays that
 * double when full, so the ray loop allocates nothing per ray.
 */
import { POSE_STRIDE, type PacketChunk } from '../../src-common/packets';
import { grown, trimmed } from '../arrays/typed-arrays';

export class ChunkBuilder {
  readonly packetStart: number;
  packetCount = 0;
  rayCount = 0;

  private packetTime: Float64Array<ArrayBuffer>;
  private packetPose: Float64Array<ArrayBuffer>;
  private rayStart: Uint32Array<ArrayBuffer>;
  private rayDir: Float32Array<ArrayBuffer>;
  private rayRange: Float32Array<ArrayBuffer>;
  private rayIntensity: Float32Array<ArrayBuffer>;
  private rayTime: Float32Array<ArrayBuffer>;
  private rayRing: Uint16Array<ArrayBuffer>;
  private rayReturn: Uint8Array<ArrayBuffer>;
  private rayObject: Uint32Array<ArrayBuffer>;
  private rayClass: Uint8Array<ArrayBuffer>;
  private open = false;

  constructor(packetStart: number, rayCapacity = 4096, packetCapacity = 16) {
    this.packetStart = packetStart;
    const rc = Math.max(1, rayCapacity), pc = Math.max(1, packetCapacity);
    this.packetTime = new Float64Array(pc);
    this.packetPose = new Float64Array(pc * POSE_STRIDE);
    this.rayStart = new Uint32Array(pc + 1);
    this.rayDir = new Float32Array(rc * 3);
    this.rayRange = new Float32Array(rc);
    this.rayIntensity = new Float32Array(rc);
    this.rayTime = new Float32Array(rc);
    this.rayRing = new Uint16Array(rc);
    this.rayReturn = new Uint8Array(rc);
    this.rayObject = new Uint32Array(rc);
    this.rayClass = new Uint8Array(rc);
  }

  /** Index (within the log) of the packet the next beginPacket() starts. */
  get nextPacketIndex(): number {
    return this.packetStart + this.packetCount;
  }

  /** Start a packet: its time and sensor pose (world ← sensor, 7 numbers at pose[po..]). */
  beginPacket(time: number, pose: ArrayLike<number>, po = 0): void {
    if (this.open) this.endPacket();
    const k = this.packetCount;
    if (k + 1 >= this.rayStart.length) this.growPackets();
    this.packetTime[k] = time;
    for (let i = 0; i < POSE_STRIDE; i++) this.packetPose[k * POSE_STRIDE + i] = pose[po + i]!;
    this.rayStart[k] = this.rayCount;
    this.open = true;
  }

  /** Close the current packet (beginPacket and finish do it implicitly). */
  endPacket(): void {
    if (!this.open) return;
    this.packetCount++;
    this.rayStart[this.packetCount] = this.rayCount;
    this.open = false;
  }

  pushRay(
    dx: number, dy: number, dz: number,
    range: number, intensity: number, time: number,
    ring: number, returnNumber: number, objectId: number, classId: number,
  ): void {
    if (!this.open) throw new Error('ChunkBuilder.pushRay outside a packet');
    const i = this.rayCount;
    if (i >= this.rayRange.length) this.growRays();
    this.rayDir[3 * i] = dx;
    this.rayDir[3 * i + 1] = dy;
    this.rayDir[3 * i + 2] = dz;
    this.rayRange[i] = range;
    this.rayIntensity[i] = intensity;
    this.rayTime[i] = time;
    this.rayRing[i] = ring;
    this.rayReturn[i] = returnNumber;
    this.rayObject[i] = objectId;
    this.rayClass[i] = classId;
    this.rayCount = i + 1;
  }

  /** The chunk, in arrays trimmed to size (fresh buffers, safe to transfer). */
  finish(): PacketChunk {
    if (this.open) this.endPacket();
    const n = this.rayCount, p = this.packetCount;
    // Arrays filled exactly (the capacity was known, as for a simulated batch) are handed over
    // as they are; the builder is done after finish().
    return {
      packetStart: this.packetStart,
      packetCount: p,
      rayCount: n,
      packetTime: trimmed(this.packetTime, p),
      packetPose: trimmed(this.packetPose, p * POSE_STRIDE),
      rayStart: trimmed(this.rayStart, p + 1),
      rayDir: trimmed(this.rayDir, 3 * n),
      rayRange: trimmed(this.rayRange, n),
      rayIntensity: trimmed(this.rayIntensity, n),
      rayTime: trimmed(this.rayTime, n),
      rayRing: trimmed(this.rayRing, n),
      rayReturn: trimmed(this.rayReturn, n),
      rayObject: trimmed(this.rayObject, n),
      rayClass: trimmed(this.rayClass, n),
    };
  }

  private growPackets(): void {
    const pc = (this.rayStart.length - 1) * 2;
    this.packetTime = grown(this.packetTime, pc);
    this.packetPose = grown(this.packetPose, pc * POSE_STRIDE);
    this.rayStart = grown(this.rayStart, pc + 1);
  }

  private growRays(): void {
    const rc = this.rayRange.length * 2;
    this.rayDir = grown(this.rayDir, rc * 3);
    this.rayRange = grown(this.rayRange, rc);
    this.rayIntensity = grown(this.rayIntensity, rc);
    this.rayTime = grown(this.rayTime, rc);
    this.rayRing = grown(this.rayRing, rc);
    this.rayReturn = grown(this.rayReturn, rc);
    this.rayObject = grown(this.rayObject, rc);
    this.rayClass = grown(this.rayClass, rc);
  }
}
