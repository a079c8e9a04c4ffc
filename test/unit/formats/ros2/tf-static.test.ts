/**
 * A sensor placed only by /tf_static (nothing in its chain moves) is posed on import, from an
 * MCAP written by @mcap/core's own writer and a .db3 written with SQLite, the messages encoded
 * with @foxglove/cdr's writer — not Thicket's encoders.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { CdrWriter } from '@foxglove/cdr';
import { McapWriter, type IWritable } from '@mcap/core';
import { afterAll, describe, expect, it } from 'vitest';
import { memorySource, type DecodedPacket } from '../../../../src-worker/formats/log-source';
import { mcapPackets } from '../../../../src-worker/formats/mcap/index';
import { db3Packets } from '../../../../src-worker/tasks/ros2-db3-file';
import { tempDir } from '../../../helpers/temp';

const tmp = tempDir('thicket-tf-static-');
afterAll(() => tmp.cleanup());

const T0 = 1_713_492_677;
const PC2 = 'sensor_msgs/msg/PointCloud2';
const TF = 'tf2_msgs/msg/TFMessage';
/** map ← base_link: 48.7 m out along a bearing, turned 90° about z; base_link ← velodyne: 1.5 m up. */
const MAP_BASE = [30, -38.32, 0, 0, 0, Math.SQRT1_2, Math.SQRT1_2];
const BASE_VELO = [0, 0, 1.5, 0, 0, 0, 1];

function stamp(w: CdrWriter, t: number): void {
  const sec = Math.floor(t);
  w.int32(sec).uint32(Math.round((t - sec) * 1e9));
}

function tfMessage(edges: { parent: string; child: string; pose: number[] }[]): Uint8Array {
  const w = new CdrWriter();
  w.sequenceLength(edges.length);
  for (const e of edges) {
    stamp(w, T0);
    w.string(e.parent).string(e.child);
    for (const v of e.pose) w.float64(v);
  }
  return w.data;
}

/** A PointCloud2 of float32 x, y, z points in `frame`. */
function cloud(frame: string, t: number, xyz: number[]): Uint8Array {
  const n = xyz.length / 3;
  const w = new CdrWriter();
  stamp(w, t);
  w.string(frame).uint32(1).uint32(n);
  w.sequenceLength(3);
  ['x', 'y', 'z'].forEach((f, i) => w.string(f).uint32(4 * i).uint8(7).uint32(1));
  w.uint8(0).uint32(12).uint32(12 * n);
  const data = new Uint8Array(Float32Array.from(xyz).buffer);
  w.sequenceLength(data.byteLength);
  w.uint8Array(data, false);
  w.uint8(1);
  return w.data;
}

const POINT = [10, 0, 0];
const messages = (): { topic: string; type: string; t: number; data: Uint8Array }[] => [
  { topic: '/tf_static', type: TF, t: T0, data: tfMessage([{ parent: 'map', child: 'base_link', pose: MAP_BASE }, { parent: 'base_link', child: 'velodyne', pose: BASE_VELO }]) },
  ...[0, 1, 2].map((k) => ({ topic: '/velodyne_points', type: PC2, t: T0 + 0.1 * k, data: cloud('velodyne', T0 + 0.1 * k, POINT) })),
];

async function mcapBytes(): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  const writable: IWritable = { write: async (b) => { parts.push(b.slice()); size += b.byteLength; }, position: () => BigInt(size) };
  const w = new McapWriter({ writable });
  await w.start({ profile: 'ros2', library: 'test' });
  const channels = new Map<string, number>();
  let seq = 0;
  for (const m of messages()) {
    if (!channels.has(m.topic)) {
      const schemaId = await w.registerSchema({ name: m.type, encoding: 'ros2msg', data: new Uint8Array() });
      channels.set(m.topic, await w.registerChannel({ topic: m.topic, schemaId, messageEncoding: 'cdr', metadata: new Map() }));
    }
    const ns = BigInt(Math.round(m.t * 1e6)) * 1000n;
    await w.addMessage({ channelId: channels.get(m.topic)!, sequence: seq++, logTime: ns, publishTime: ns, data: m.data });
  }
  await w.end();
  const out = new Uint8Array(size);
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.byteLength; }
  return out;
}

function db3Path(): string {
  const path = join(tmp.dir, 'static.db3');
  const db = new Database(path);
  db.exec(`CREATE TABLE topics(id INTEGER PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL, serialization_format TEXT NOT NULL, offered_qos_profiles TEXT NOT NULL);
           CREATE TABLE messages(id INTEGER PRIMARY KEY, topic_id INTEGER NOT NULL, timestamp INTEGER NOT NULL, data BLOB NOT NULL);`);
  const ids = new Map<string, number>();
  for (const m of messages()) {
    if (!ids.has(m.topic)) {
      ids.set(m.topic, ids.size + 1);
      db.prepare('INSERT INTO topics VALUES (?, ?, ?, ?, ?)').run(ids.size, m.topic, m.type, 'cdr', '');
    }
    db.prepare('INSERT INTO messages (topic_id, timestamp, data) VALUES (?, ?, ?)').run(ids.get(m.topic), BigInt(Math.round(m.t * 1e6)) * 1000n, m.data);
  }
  db.close();
  return path;
}

function collect(gen: Generator<DecodedPacket, { notes: Record<string, unknown> }, void>): { poses: number[][]; notes: Record<string, unknown> } {
  const poses: number[][] = [];
  let r = gen.next();
  for (; !r.done; r = gen.next()) poses.push(r.value.pose ? Array.from(r.value.pose) : []);
  return { poses, notes: r.value.notes };
}

/** The world point of the sensor-frame point through a pose [t, q]. */
function apply(pose: number[], p: number[]): number[] {
  const [tx, ty, tz, x, y, z, w] = pose as [number, number, number, number, number, number, number];
  const [px, py, pz] = p as [number, number, number];
  // v + 2w(q×v) + 2q×(q×v)
  const cx = y * pz - z * py, cy = z * px - x * pz, cz = x * py - y * px;
  const dx = y * cz - z * cy, dy = z * cx - x * cz, dz = x * cy - y * cx;
  return [tx + px + 2 * (w * cx + dx), ty + py + 2 * (w * cy + dy), tz + pz + 2 * (w * cz + dz)];
}

describe('/tf_static: a chain in which nothing moves still places the sensor', () => {
  // map ← velodyne = MAP_BASE · BASE_VELO: (30, −38.32, 1.5), turned 90°; the point 10 m ahead lands at (30, −28.32, 1.5).
  const expected = [30, -28.32, 1.5];
  const check = ({ poses, notes }: ReturnType<typeof collect>): void => {
    expect(poses).toHaveLength(3);
    for (const p of poses) {
      const world = apply(p, POINT);
      for (let i = 0; i < 3; i++) expect(world[i]).toBeCloseTo(expected[i]!, 9);
    }
    expect(notes).toMatchObject({ poseSource: 'tf map ← velodyne', packetsWithoutPose: 0 });
  };

  it('MCAP (written by @mcap/core)', async () => {
    check(collect(mcapPackets(memorySource('static.mcap', await mcapBytes()), { name: 'static.mcap', profile: null })));
  });

  it('ROS 2 .db3', () => {
    check(collect(db3Packets(db3Path(), { profile: null })));
  });
});
