/**
 * Drive-log imports through the services (worker task, flow control, store): real Velodyne
 * captures with known packet counts, calibrations, misses rebuilt for hit-only scans, and bad
 * input that fails with the file, the place and the reason and leaves the project unchanged.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../../../src-main/api/contract';
import type { AppServices } from '../../../src-main/services/app-services';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';
import { useAppServices } from '../../helpers/app-services';

const app = useAppServices({ workers: 2, project: 'logs.thicket' });

async function importDone(req: Parameters<AppServices['call']>[1] & object, method: 'logs.importFile' | 'logs.importBytes' = 'logs.importFile') {
  const { job } = await app.services.call(method, req as never);
  const final = await app.services.whenJobSettled(job.id);
  if (final.state !== 'done') throw new Error(`import ${final.state}: ${final.error}`);
  return final.result as Record<string, number | string>;
}

describe.skipIf(!HAS_SHARED_DATA)('Velodyne captures', () => {
  // Data packets per capture (also checked at the pcap level in test/unit/formats/pcap/pcap.test.ts).
  const cases = [
    { file: 'rust_lidar_utils/velodyne_vlp16.pcap', packets: 84, sensor: 'VLP-16', profile: 'vlp16' },
    { file: 'rust_lidar_utils/hdl32_example.pcap', packets: 876, sensor: 'HDL-32E', profile: 'hdl32e' },
    { file: 'veloview/vlp-16-test-90deg-1-50-frames.pcap', packets: 1902, sensor: 'VLP-16', profile: 'vlp16', droppedBlocks: 1 },
  ];
  for (const c of cases) {
    it(`${c.file}: ${c.packets} packets of a ${c.sensor}, misses kept`, async () => {
      const r = await importDone({ path: dataFile(c.file) });
      // 12 blocks × 32 channels, single return; a block whose azimuth is out of range is dropped.
      const rays = c.packets * 384 - 32 * ('droppedBlocks' in c ? c.droppedBlocks ?? 0 : 0);
      expect(r).toMatchObject({ format: 'velodyne-pcap', packets: c.packets });
      expect(Number(r.hits) + Number(r.misses)).toBe(rays);
      expect(Number(r.misses)).toBeGreaterThan(0);
      const log = await app.services.call('logs.get', { id: Number(r.log) });
      expect(log.profileId).toBe(c.profile);
      expect(log.info).toMatchObject({ sensor: c.sensor, dataPackets: c.packets, returnMode: 'strongest' });
      // 10 Hz heads: the duration is packets × the packet period (VLP-16 1.327 ms, HDL-32E 0.553 ms) within 2 %.
      const period = c.profile === 'vlp16' ? 24 * 55.296e-6 : 12 * 46.08e-6;
      expect(log.durationS).toBeGreaterThan(0.98 * c.packets * period);
      expect(log.durationS).toBeLessThan(1.02 * c.packets * period);
    });
  }

  it('reads the GPRMC fixes of the HDL-32E drive', async () => {
    const r = await importDone({ path: dataFile('rust_lidar_utils/hdl32_example.pcap') });
    const log = await app.services.call('logs.get', { id: Number(r.log) });
    expect(log.info).toMatchObject({ positionPackets: 100, gpsFixes: 100 });
    expect(String(log.info.firstFix)).toMatch(/^37\.14\d+, -121\.66\d+$/); // Morgan Hill, CA
  });

  it('decodes with a calibration file instead of the built-in profile', async () => {
    const r = await importDone({ path: dataFile('rust_lidar_utils/hdl32_example.pcap'), calibrationPath: dataFile('velodyne_calib/32db.xml') });
    const log = await app.services.call('logs.get', { id: Number(r.log) });
    expect(log.info).toMatchObject({ calibration: '32db.xml', sensor: 'HDL-32E' });
    expect(r.packets).toBe(876);
  });

  it('a truncated capture keeps its complete records and warns how many bytes were dropped', async () => {
    const bytes = readFileSync(dataFile('rust_lidar_utils/velodyne_vlp16.pcap'));
    const cut = join(app.dir, 'cut.pcap');
    writeFileSync(cut, bytes.subarray(0, 50_000));
    const r = await importDone({ path: cut });
    // 43 complete records (36 data packets and GPS position packets) end at byte 49,518; the
    // record walk is checked independently in test/unit/formats/truncated.test.ts.
    expect(r).toMatchObject({ packets: 36, warnings: ['cut.pcap: truncated at byte 49518: the last 482 byte(s), an incomplete record, were dropped; the 43 complete record(s) before it were kept'] });
    const log = await app.services.call('logs.get', { id: Number(r.log) });
    expect(log.info.warnings).toEqual(r.warnings);
  });
});

describe('hit-only scans with a profile', () => {
  it('rebuilds the misses of a KITTI scan from the HDL-64E pattern, and keeps hits only without one', async () => {
    // A synthetic sweep: every 4th azimuth step of the HDL-64E pattern hit on the middle laser ring only.
    const n = 2000;
    const f = new Float32Array(4 * n);
    for (let i = 0; i < n; i++) {
      const a = (i / n) * 2 * Math.PI;
      f[4 * i] = 10 * Math.cos(a);
      f[4 * i + 1] = 10 * Math.sin(a);
      f[4 * i + 2] = -1.0;
    }
    const bytes = new Uint8Array(f.buffer);
    const plain = await importDone({ name: 'sweep.bin', bytes: bytes.slice() }, 'logs.importBytes');
    expect(plain).toMatchObject({ hits: n, misses: 0, rebuiltMisses: 0 });
    const rebuilt = await importDone({ name: 'sweep.bin', bytes: bytes.slice(), profileId: 'hdl64e' }, 'logs.importBytes');
    expect(rebuilt.hits).toBe(n);
    // 64 lasers × their azimuth steps per revolution, minus the cells the hits occupy.
    expect(Number(rebuilt.misses)).toBeGreaterThan(60 * 1000);
    expect(rebuilt.rebuiltMisses).toBe(rebuilt.misses);
    const off = await importDone({ name: 'sweep.bin', bytes: bytes.slice(), profileId: 'hdl64e', rebuildMisses: false }, 'logs.importBytes');
    expect(off).toMatchObject({ hits: n, misses: 0 });
    // A display name without an extension: the file's own name still tells the format.
    const file = join(app.dir, 'sweep.bin');
    writeFileSync(file, bytes);
    const named = await importDone({ path: file, name: 'KITTI sweep' });
    expect(named).toMatchObject({ format: 'kitti-bin', hits: n });
    expect(app.services.session!.store.logs.get(Number(named.log))!.name).toBe('KITTI sweep');
  });

  it('refuses an unknown profile before starting a job', async () => {
    const err = await app.services.dispatch('logs.importBytes', { name: 's.bin', bytes: new Uint8Array(16), profileId: 'nope' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toContain('nope');
  });

  it('refuses an Ouster capture without its metadata', async () => {
    const err = await app.services.dispatch('logs.importBytes', { name: 'o.pcap', bytes: new Uint8Array(64), format: 'ouster-pcap' }).catch((e: unknown) => e);
    expect((err as ApiError).message).toContain('metadata JSON');
  });
});

describe.skipIf(!HAS_SHARED_DATA)('Ouster captures', () => {
  it('imports the OS1-128 lb_n3 capture with its metadata: 192 lidar packets, 3 frames', async () => {
    const r = await importDone({
      path: dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10_lb_n3.pcap'),
      calibrationPath: dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10.json'),
    });
    expect(r).toMatchObject({ format: 'ouster-pcap', packets: 192 });
    expect(Number(r.hits) + Number(r.misses)).toBe(192 * 16 * 128);
    expect(Number(r.durationS)).toBeGreaterThan(0.25);
    expect(Number(r.durationS)).toBeLessThan(0.31);
    const log = await app.services.call('logs.get', { id: Number(r.log) });
    expect(log.info).toMatchObject({ calibration: 'OS-1-128_v2.3.0_1024x10.json' });
  });
});

describe.skipIf(!HAS_SHARED_DATA)('scans: PLY, LAZ, KITTI with poses', () => {
  it('imports the RELLIS PLY with its rings and point times', async () => {
    const r = await importDone({ path: dataFile('rellis3d/frame000104-1581624663_170.ply') });
    expect(r).toMatchObject({ format: 'ply', packets: 1 });
    expect(Number(r.hits)).toBeGreaterThan(60_000); // 131,072 records, the organised scan's empty pixels dropped
    const cloud = await app.services.call('logs.cloud', { id: Number(r.log), budget: 1_000_000 });
    expect(Math.max(...cloud.ring.filter((x) => x !== 0xffff))).toBe(63);
  });

  it('imports a LAZ plot: every point, ASPRS ground mapped, georeferenced origin noted', async () => {
    const r = await importDone({ path: dataFile('lidR_als/MixedConifer.laz') });
    expect(r).toMatchObject({ format: 'las', packets: 1, hits: 37_657 });
    const log = await app.services.call('logs.get', { id: Number(r.log) });
    expect(String(log.info.origin)).toBe('481260, 3812921, 0');
  });

  it('a KITTI poses row moves a one-scan log (one row per scan)', async () => {
    // The second row of the Ouster SLAM poses (0.25 m along x) applied to a one-scan KITTI log.
    const third = readFileSync(dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10_lb_n3_poses_kitti.txt'), 'utf8').trim().split('\n')[1]!;
    const poses = join(app.dir, 'one-row.txt');
    writeFileSync(poses, `${third}\n`);
    const r = await importDone({ path: dataFile('overlapnet_kitti/000000.bin'), posesPath: poses });
    const log = await app.services.call('logs.get', { id: Number(r.log) });
    expect(log.info.poses).toBe('one-row.txt');
    const rows = third.trim().split(/\s+/).map(Number);
    const cloud = await app.services.call('logs.cloud', { id: Number(r.log), budget: 1_000_000 });
    const plain = await app.services.call('logs.cloud', { id: Number((await importDone({ path: dataFile('overlapnet_kitti/000000.bin') })).log), budget: 1_000_000 });
    // The same scan, shifted by row 0's translation (rotation near identity here: compare bounds centres).
    const centre = (c: typeof cloud, k: number) => (c.bounds!.min[k]! + c.bounds!.max[k]!) / 2;
    for (const k of [0, 1, 2]) expect(Math.abs(centre(cloud, k) - centre(plain, k) - rows[4 * k + 3]!)).toBeLessThan(0.5);
  });

  it('timed CSV poses are interpolated at each packet time; a bad row names its line', async () => {
    const csv = join(app.dir, 'poses.csv');
    writeFileSync(csv, 'time,x,y,z,qx,qy,qz,qw\n0,0,0,0,0,0,0,1\n1,10,0,0,0,0,0,1\n');
    const r = await importDone({ path: dataFile('rust_lidar_utils/velodyne_vlp16.pcap'), posesPath: csv });
    const tl = await app.services.call('logs.timeline', { id: Number(r.log) });
    const last = tl.trajectory.position.length / 3 - 1;
    // 84 packets over 0.111 s: the sensor moved 10 m/s × the log's duration.
    expect(tl.trajectory.position[3 * last]).toBeCloseTo(10 * tl.packetTime[tl.packets - 1]!, 3);
    const bad = join(app.dir, 'bad.csv');
    writeFileSync(bad, 'time,x,y,z,qx,qy,qz,qw\n0,0,0,0,0,0,0,1\n1,10,0,zero,0,0,0,1\n');
    const err = await app.services.dispatch('logs.importFile', { path: dataFile('rust_lidar_utils/velodyne_vlp16.pcap'), posesPath: bad }).catch((e: unknown) => e as ApiError);
    expect((err as ApiError).message).toMatch(/bad\.csv, line 3/);
  });
});

describe.skipIf(!HAS_SHARED_DATA)('ROS 2 bags', () => {
  it('imports the nebula VLP-16 .db3 (dual return) with its calibration; without one it says what is missing', async () => {
    const bag = dataFile('nebula_velodyne/vlp16/1673400471837873222_0.db3');
    const r = await importDone({ path: bag, calibrationPath: dataFile('nebula_velodyne/VLP16.yaml') });
    expect(r).toMatchObject({ format: 'ros2-db3', packets: 603 });
    expect(Number(r.misses)).toBeGreaterThan(0);
    const { job } = await app.services.call('logs.importFile', { path: bag });
    const final = await app.services.whenJobSettled(job.id);
    expect(final.state).toBe('failed');
    expect(final.error).toMatch(/calibration|profile/);
  });
});
