import { McapStreamReader, type McapTypes } from '@mcap/core';
import { describe, expect, it } from 'vitest';
import { ChunkBuilder } from '../../../../src-worker/formats/chunk-builder';
import { memorySource, type DecodedPacket } from '../../../../src-worker/formats/log-source';
import { DECOMPRESS_HANDLERS, McapLogWriter, encodeMcapLog, mcapPackets } from '../../../../src-worker/formats/mcap/index';
import { POSE_STRIDE, RING_UNKNOWN, type PacketChunk } from '../../../../src-common/packets';
import { applyPose } from '../../../../src-worker/geometry/trajectory';

const T0 = 1_700_000_000;

/** A spinning 16-laser sensor driving a curve: 50 packets, 5 ms apart, every 7th ray a miss. */
function driveLog(): PacketChunk[] {
  const chunks: PacketChunk[] = [];
  let b = new ChunkBuilder(0);
  for (let k = 0; k < 50; k++) {
    if (k === 30) { chunks.push(b.finish()); b = new ChunkBuilder(30); }
    const t = k * 0.005;
    const yaw = 0.4 * t;
    b.beginPacket(t, [10 * t, 3 * t * t, 0.1 * t, 0, 0, Math.sin(yaw / 2), Math.cos(yaw / 2)]);
    for (let i = 0; i < 32; i++) {
      const az = k * 0.12 + (i >> 4) * 0.002, el = ((i & 15) - 7.5) * 0.035;
      const range = (k * 32 + i) % 7 === 0 ? NaN : 3 + ((k * 37 + i * 11) % 400) / 10;
      b.pushRay(Math.cos(el) * Math.cos(az), Math.cos(el) * Math.sin(az), Math.sin(el), range, i * 3, (i >> 4) * 55.296e-6 + (i & 15) * 2.304e-6, i === 31 ? RING_UNKNOWN : i & 15, 0, 0, 0);
    }
  }
  chunks.push(b.finish());
  return chunks;
}

interface WorldPoint { p: number[]; time: number; intensity: number; ring: number }

/** Hits in the world frame, with absolute times (input chunks are seconds since the log start). */
function worldFromChunks(chunks: PacketChunk[]): WorldPoint[] {
  const out: WorldPoint[] = [];
  const p = [0, 0, 0];
  for (const c of chunks) {
    for (let k = 0; k < c.packetCount; k++) {
      for (let r = c.rayStart[k]!; r < c.rayStart[k + 1]!; r++) {
        const range = c.rayRange[r]!;
        if (Number.isNaN(range)) continue;
        applyPose(c.packetPose, k * POSE_STRIDE, c.rayDir[3 * r]! * range, c.rayDir[3 * r + 1]! * range, c.rayDir[3 * r + 2]! * range, p, 0);
        out.push({ p: [...p], time: T0 + c.packetTime[k]! + c.rayTime[r]!, intensity: c.rayIntensity[r]!, ring: c.rayRing[r]! });
      }
    }
  }
  return out;
}

function worldFromPackets(packets: DecodedPacket[]): WorldPoint[] {
  const out: WorldPoint[] = [];
  const p = [0, 0, 0];
  for (const d of packets) {
    for (let i = 0; i < d.count; i++) {
      const range = d.range[i]!;
      applyPose(d.pose!, 0, d.dir[3 * i]! * range, d.dir[3 * i + 1]! * range, d.dir[3 * i + 2]! * range, p, 0);
      out.push({ p: [...p], time: d.time + (d.rayTime ? d.rayTime[i]! : 0), intensity: d.intensity[i]!, ring: d.ring ? d.ring[i]! : RING_UNKNOWN });
    }
  }
  return out;
}

function readBack(bytes: Uint8Array): DecodedPacket[] {
  const out: DecodedPacket[] = [];
  for (const p of mcapPackets(memorySource('export.mcap', bytes), { profile: null })) {
    out.push({ ...p, pose: p.pose ? Array.from(p.pose) : null });
  }
  return out;
}

function compare(a: WorldPoint[], b: WorldPoint[]): { point: number; time: number } {
  expect(b.length).toBe(a.length);
  let point = 0, time = 0;
  a.forEach((x, i) => {
    const y = b[i]!;
    point = Math.max(point, Math.hypot(x.p[0]! - y.p[0]!, x.p[1]! - y.p[1]!, x.p[2]! - y.p[2]!));
    time = Math.max(time, Math.abs(x.time - y.time));
    expect(y.intensity).toBe(x.intensity);
    expect(y.ring).toBe(x.ring);
  });
  return { point, time };
}

describe('MCAP export (PointCloud2 + tf) and read-back', () => {
  it('one message per 0.1 s sweep: the same world points (float32), times, intensities and rings come back', async () => {
    const chunks = driveLog();
    const { bytes, summary } = await encodeMcapLog(chunks, { timeOrigin: T0 });
    const hits = worldFromChunks(chunks).length;
    expect(summary).toMatchObject({ cloudMessages: 3, tfMessages: 3, packets: 50, points: hits, misses: 50 * 32 - hits, bytes: bytes.byteLength });
    const packets = readBack(bytes);
    expect(packets).toHaveLength(3);
    // Each message is stamped at its first packet, posed by /tf at that stamp.
    [0, 20, 40].forEach((k, m) => {
      expect(packets[m]!.time).toBeCloseTo(T0 + k * 0.005, 6);
      const c = k < 30 ? chunks[0]! : chunks[1]!;
      const o = (k < 30 ? k : k - 30) * POSE_STRIDE;
      for (let j = 0; j < 7; j++) expect(packets[m]!.pose![j]!).toBeCloseTo(c.packetPose[o + j]!, 12);
    });
    const d = compare(worldFromChunks(chunks), worldFromPackets(packets));
    console.log(`[mcap round trip] sweeps: ${hits} points, largest world-point deviation ${(d.point * 1e6).toFixed(2)} µm, time ${(d.time * 1e9).toFixed(0)} ns`);
    // Points travel as float32 in the sweep's frame (≤ 45 m): ≤ 45 m × 2⁻²⁴ ≈ 3 µm, plus the pose round trip.
    expect(d.point).toBeLessThan(1e-5);
    // Unix seconds in a double resolve 0.24 µs; the per-point time is float32 seconds within the sweep.
    expect(d.time).toBeLessThan(1e-6);
  });

  it('one message per packet (messagePeriodS 0): packets and poses come back one to one', async () => {
    const chunks = driveLog();
    const { bytes, summary } = await encodeMcapLog(chunks, { timeOrigin: T0, messagePeriodS: 0, compression: 'none' });
    expect(summary.cloudMessages).toBe(50);
    const packets = readBack(bytes);
    expect(packets).toHaveLength(50);
    packets.forEach((p, k) => {
      const c = k < 30 ? chunks[0]! : chunks[1]!;
      const o = (k < 30 ? k : k - 30) * POSE_STRIDE;
      for (let j = 0; j < 7; j++) expect(p.pose![j]!).toBeCloseTo(c.packetPose[o + j]!, 12);
    });
    const d = compare(worldFromChunks(chunks), worldFromPackets(packets));
    expect(d.point).toBeLessThan(1e-5);
  });

  it('writes ros2msg schemas and CDR channels ROS tools recognise, streaming through the write callback', async () => {
    const parts: Uint8Array[] = [];
    const w = new McapLogWriter({ write: async (b) => { parts.push(b.slice()); }, pointsTopic: '/lidar/points', frameId: 'velodyne', worldFrame: 'map' });
    for (const c of driveLog()) await w.addChunk(c);
    const summary = await w.finish();
    expect(parts.length).toBeGreaterThan(1);
    const reader = new McapStreamReader({ decompressHandlers: DECOMPRESS_HANDLERS });
    for (const p of parts) reader.append(p);
    const schemas: McapTypes.Schema[] = [], channels: McapTypes.Channel[] = [];
    let messages = 0;
    for (let r = reader.nextRecord(); r; r = reader.nextRecord()) {
      if (r.type === 'Schema') schemas.push(r);
      if (r.type === 'Channel') channels.push(r);
      if (r.type === 'Message') messages++;
    }
    expect(reader.done()).toBe(true);
    expect(messages).toBe(summary.cloudMessages + summary.tfMessages);
    const text = (s: McapTypes.Schema): string => new TextDecoder().decode(s.data);
    const cloud = schemas.find((s) => s.name === 'sensor_msgs/msg/PointCloud2')!;
    expect(cloud.encoding).toBe('ros2msg');
    expect(text(cloud)).toMatch(/^std_msgs\/Header header\n/);
    expect(text(cloud)).toContain('\n================================================================================\nMSG: sensor_msgs/PointField\n');
    expect(text(schemas.find((s) => s.name === 'tf2_msgs/msg/TFMessage')!)).toContain('MSG: geometry_msgs/Quaternion\nfloat64 x 0');
    expect(channels.map((c) => [c.topic, c.messageEncoding])).toEqual(expect.arrayContaining([['/lidar/points', 'cdr'], ['/tf', 'cdr']]));
    // frame names carry through to what a reader sees.
    const bytes = new Uint8Array(summary.bytes);
    let o = 0;
    for (const p of parts) { bytes.set(p, o); o += p.byteLength; }
    const gen = mcapPackets(memorySource('x.mcap', bytes), { profile: null });
    let r = gen.next();
    while (!r.done) r = gen.next();
    expect(r.value.notes).toMatchObject({ topic: '/lidar/points', frameId: 'velodyne', poseSource: 'tf map ← velodyne' });
  });

  it('an empty log is a valid MCAP with no messages', async () => {
    const { bytes, summary } = await encodeMcapLog([]);
    expect(summary.cloudMessages).toBe(0);
    const reader = new McapStreamReader();
    reader.append(bytes);
    while (reader.nextRecord()) { /* drain */ }
    expect(reader.done()).toBe(true);
  });
});
