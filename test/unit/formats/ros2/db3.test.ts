import Database from 'better-sqlite3';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HAS_SHARED_DATA, dataFile } from '../../../helpers/shared-data';
import { tempDir } from '../../../helpers/temp';
import { POINT_CLOUD2_TYPE, TF_MESSAGE_TYPE, encodePointCloud2, encodeTfMessage } from '../../../../src-worker/formats/ros2/index';
import { importCalibration } from '../../../../src-worker/sensors/calibration/index';
import { db3Messages, db3Packets, db3Topics } from '../../../../src-worker/tasks/ros2-db3-file';
import { decodeErrorOf } from '../helpers';

const tmp = tempDir('thicket-db3-');
afterAll(() => tmp.cleanup());

/** A rosbag2 sqlite3 file with rosbag2's schema: `rows` are [topic id, timestamp ns, data]. */
function writeBag(file: string, topics: [number, string, string, string][], rows: [number, bigint, Uint8Array][]): string {
  const path = join(tmp.dir, file);
  const db = new Database(path);
  db.exec(`CREATE TABLE topics(id INTEGER PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL, serialization_format TEXT NOT NULL, offered_qos_profiles TEXT NOT NULL);
           CREATE TABLE messages(id INTEGER PRIMARY KEY, topic_id INTEGER NOT NULL, timestamp INTEGER NOT NULL, data BLOB NOT NULL);`);
  const t = db.prepare('INSERT INTO topics VALUES (?, ?, ?, ?, ?)');
  for (const [id, name, type, fmt] of topics) t.run(id, name, type, fmt, '');
  const m = db.prepare('INSERT INTO messages (topic_id, timestamp, data) VALUES (?, ?, ?)');
  for (const [topic, ts, data] of rows) m.run(topic, ts, data);
  db.close();
  return path;
}

describe('ROS 2 .db3 bags (tasks/ros2-db3-file.ts)', () => {
  it('yields messages in timestamp order with exact nanosecond BigInt times, only the topics asked for', () => {
    const t0 = 1_700_000_000_123_456_789n; // not representable in a double
    const cloud = encodePointCloud2({ stamp: 1_700_000_000.1, frameId: 'lidar' }, { count: 1, xyz: [1, 2, 3] });
    const tf = encodeTfMessage([{ stamp: 1_700_000_000.1, parent: 'odom', child: 'lidar', pose: [0, 0, 0, 0, 0, 0, 1] }]);
    const path = writeBag('order.db3', [[1, '/points', POINT_CLOUD2_TYPE, 'cdr'], [2, '/tf', TF_MESSAGE_TYPE, 'cdr'], [3, '/camera', 'sensor_msgs/msg/Image', 'cdr']], [
      [1, t0 + 2n, cloud], [2, t0 + 1n, tf], [3, t0, new Uint8Array(8)], [1, t0 + 3n, cloud],
    ]);
    expect(db3Topics(path)).toEqual([
      { name: '/points', type: POINT_CLOUD2_TYPE, serializationFormat: 'cdr', messageCount: 2 },
      { name: '/tf', type: TF_MESSAGE_TYPE, serializationFormat: 'cdr', messageCount: 1 },
      { name: '/camera', type: 'sensor_msgs/msg/Image', serializationFormat: 'cdr', messageCount: 1 },
    ]);
    const all = [...db3Messages(path)];
    expect(all.map((m) => m.timestamp)).toEqual([t0, t0 + 1n, t0 + 2n, t0 + 3n]);
    expect(all.map((m) => m.topic)).toEqual(['/camera', '/tf', '/points', '/points']);
    expect(all[3]!.progress).toBe(1);
    expect([...db3Messages(path, { topics: ['/tf'] })].map((m) => m.topic)).toEqual(['/tf']);
    // The packets path skips the camera topic.
    const gen = db3Packets(path, { profile: null });
    let r = gen.next();
    while (!r.done) r = gen.next();
    expect(r.value).toMatchObject({ format: 'ros2-db3', notes: { pointMessages: 2, tfMessages: 1, otherMessages: 0, poseSource: 'tf odom ← lidar' } });
  });

  it('the file is opened read-only and left unchanged', () => {
    const path = writeBag('ro.db3', [[1, '/points', POINT_CLOUD2_TYPE, 'cdr']], [[1, 5n, encodePointCloud2({ stamp: 1, frameId: 'l' }, { count: 1, xyz: [1, 0, 0] })]]);
    const before = readFileSync(path);
    const mtime = statSync(path).mtimeMs;
    for (const _ of db3Messages(path)) { /* read all */ }
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(statSync(path).mtimeMs).toBe(mtime);
  });

  it('a missing file, a non-SQLite file and a SQLite file that is not a bag are DecodeErrors naming the file', () => {
    expect(decodeErrorOf(() => [...db3Messages(join(tmp.dir, 'absent.db3'))]).message).toMatch(/^absent\.db3: cannot open as a ROS 2 bag/);
    const text = join(tmp.dir, 'notes.db3');
    writeFileSync(text, 'this is not a database, just some text that is long enough to have a header');
    expect(decodeErrorOf(() => [...db3Messages(text)]).message).toMatch(/^notes\.db3: /);
    const other = join(tmp.dir, 'other.db3');
    new Database(other).exec('CREATE TABLE things(a)').close();
    expect(decodeErrorOf(() => db3Topics(other)).reason).toBe('not a ROS 2 bag: the SQLite file has no messages/topics tables (it has things)');
    const images = writeBag('images.db3', [[1, '/camera', 'sensor_msgs/msg/Image', 'cdr']], [[1, 1n, new Uint8Array(4)]]);
    expect(decodeErrorOf(() => db3Packets(images, { profile: null }).next()).reason).toBe('no point cloud, tf or odometry topics; topics in the bag: /camera (sensor_msgs/msg/Image)');
  });

  it.skipIf(!HAS_SHARED_DATA)('the nebula VLP-16 bag: 4 messages, 603 packets of 384 rays, dual return', () => {
    const bag = dataFile('nebula_velodyne/vlp16/1673400471837873222_0.db3');
    expect(db3Topics(bag)).toEqual([{ name: '/velodyne_packets', type: 'velodyne_msgs/msg/VelodyneScan', serializationFormat: 'cdr', messageCount: 4 }]);
    const profile = importCalibration(readFileSync(dataFile('nebula_velodyne/VLP16.yaml'), 'utf8'), 'VLP16.yaml').profile;
    const gen = db3Packets(bag, { profile });
    let packets = 0, last = -Infinity, r = gen.next();
    for (; !r.done; r = gen.next()) {
      packets++;
      // Packet clocks 1.327 ms apart (dual return: one firing pair per two blocks).
      if (Number.isFinite(last)) expect(r.value.time - last).toBeGreaterThan(0);
      last = r.value.time;
    }
    expect(packets).toBe(603);
    expect(r.value).toMatchObject({ format: 'ros2-db3', sensor: 'VLP-16', recordsMisses: true, notes: { returnMode: 'dual', packets: 603, pointMessages: 4, frameId: 'velodyne' } });
    // The bag spans 0.4 s of packets.
    expect(last).toBeGreaterThan(1673400472.13);
  });
});
