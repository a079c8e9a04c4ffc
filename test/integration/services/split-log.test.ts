/**
 * Splitting a stored drive log at a scan (logs.split), on real captures: the Ouster lb_n3
 * capture (3 scans, rays stored decoded) and a VLP-16 capture of 50 revolutions (stored packed).
 * The parts' packets, rays, hits and poses add up to the original's; K out of range is refused
 * before anything is written.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/api/contract';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';
import { useAppServices } from '../../helpers/app-services';

const app = useAppServices({ workers: 1, project: 'split.thicket' });

async function settle(job: { id: number }) {
  const final = await app.services.whenJobSettled(job.id);
  if (final.state !== 'done') throw new Error(`${final.kind} ${final.state}: ${final.error}`);
  return final.result as Record<string, unknown>;
}

async function split(id: number, at: number) {
  const r = await settle((await app.services.call('logs.split', { id, at })).job);
  return r.logs as { log: number; name: string; scans: number; packets: number }[];
}

describe.skipIf(!HAS_SHARED_DATA)('logs.split on real captures', () => {
  it('the Ouster lb_n3 capture split at scan 3: 2 scans and 1 scan whose packets, hits and poses add up to the original', async () => {
    const imported = await settle((await app.services.call('logs.importFile', {
      path: dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10_lb_n3.pcap'),
      calibrationPath: dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10.json'),
      posesPath: dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10_lb_n3_poses_kitti.txt'),
    })).job);
    const id = Number(imported.log);
    const original = await app.services.call('logs.get', { id });
    const parts = await split(id, 3);
    expect(parts.map((p) => [p.scans, p.packets])).toEqual([[2, 128], [1, 64]]);
    expect(parts[0]!.packets + parts[1]!.packets).toBe(original.packets);
    const [a, b] = await Promise.all(parts.map((p) => app.services.call('logs.get', { id: p.log })));
    expect(a!.hits + b!.hits).toBe(original.hits);
    expect(a!.misses + b!.misses).toBe(original.misses);
    expect(b!.name).toBe(`${original.name} scan 3`);
    // Metadata and profile carry over; the second log's clock starts at its first packet.
    expect(b!.info).toMatchObject({ calibration: original.info.calibration, poses: original.info.poses, splitFrom: { log: id, scans: '3:3', of: 3 } });
    expect(b!.profileId).toBe(original.profileId);
    const whole = await app.services.call('logs.timeline', { id, maxPoses: 1000 });
    const second = await app.services.call('logs.timeline', { id: b!.id, maxPoses: 1000 });
    const first = await app.services.call('logs.timeline', { id: a!.id, maxPoses: 1000 });
    expect(Array.from(first.sweepStart)).toEqual([0, 64]);
    expect(Array.from(second.sweepStart)).toEqual([0]);
    expect(second.packetTime[0]).toBe(0);
    expect(Number(b!.info.startTime)).toBeCloseTo(Number(original.info.startTime) + whole.packetTime[128]!, 9);
    for (let p = 0; p < 64; p++) {
      expect(second.packetTime[p]!).toBeCloseTo(whole.packetTime[128 + p]! - whole.packetTime[128]!, 12);
      for (let i = 0; i < 3; i++) expect(second.trajectory.position[3 * p + i]).toBe(whole.trajectory.position[3 * (128 + p) + i]);
    }
    // The original stays.
    expect((await app.services.call('logs.get', { id })).packets).toBe(192);
  });

  it('a packed VLP-16 capture of 50 revolutions split at scan 26 adds up, its rays rebuilt from the sliced payloads', async () => {
    const imported = await settle((await app.services.call('logs.importFile', { path: dataFile('veloview/vlp-16-test-90deg-1-50-frames.pcap') })).job);
    const id = Number(imported.log);
    const original = await app.services.call('logs.get', { id });
    const tl = await app.services.call('logs.timeline', { id, maxPoses: 2 });
    const scans = tl.sweepStart.length;
    const parts = await split(id, 26);
    expect(parts[0]!.scans + parts[1]!.scans).toBe(scans);
    expect(parts[0]!.packets).toBe(tl.sweepStart[25]);
    expect(parts[0]!.packets + parts[1]!.packets).toBe(original.packets);
    const [a, b] = await Promise.all(parts.map((p) => app.services.call('logs.get', { id: p.log })));
    expect(a!.hits + b!.hits).toBe(original.hits);
    expect(a!.misses + b!.misses).toBe(original.misses);
    // Rays rebuilt from the sliced payloads: a cloud of the second part reads back.
    const cloud = await app.services.call('logs.cloud', { id: b!.id, budget: 1000 });
    expect(cloud.totalPoints).toBe(b!.hits);
  });

  it('K out of range (≤ 1 or > scans) is refused naming the log and the scan count, and writes nothing', async () => {
    const imported = await settle((await app.services.call('logs.importFile', {
      path: dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10_lb_n3.pcap'),
      calibrationPath: dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10.json'),
    })).job);
    const id = Number(imported.log);
    const before = (await app.services.call('logs.list', {})).length;
    for (const at of [1, 0, 4]) {
      const e = await app.services.call('logs.split', { id, at }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ApiError);
      expect((e as ApiError).message).toContain(`has 3 scan(s), numbered from 1: the split's first scan of the second log must be 2…3, got ${at}`);
    }
    expect((await app.services.call('logs.list', {})).length).toBe(before);
  });
});

describe('logs.split on a simulated drive with ground truth', () => {
  it('the demo\'s small test drive split at scan 2: per-ray classes and the annotation go with both parts', async () => {
    const demo = await settle((await app.services.call('demo.create', { small: true, seed: 3, path: `${app.dir}/demo.thicket` })).job);
    const drives = await settle({ id: Number(demo.drivesJob) });
    const id = (drives.logs as { log: number }[])[1]!.log;
    const original = await app.services.call('logs.get', { id });
    const scans = (await app.services.call('logs.timeline', { id, maxPoses: 2 })).sweepStart.length;
    expect(scans).toBeGreaterThanOrEqual(2);
    const parts = await split(id, 2);
    expect(parts.map((p) => p.scans)).toEqual([1, scans - 1]);
    expect(parts[0]!.packets + parts[1]!.packets).toBe(original.packets);
    // Every hit's class, counted per class over the whole log and over the two parts.
    const classes = async (log: number) => {
      const c = await app.services.call('logs.cloud', { id: log, budget: 2_000_000 });
      const n = new Map<number, number>();
      for (const k of c.classId) n.set(k, (n.get(k) ?? 0) + 1);
      return { n, total: c.classId.length };
    };
    const whole = await classes(id);
    expect(whole.total).toBe(original.hits);
    const [a, b] = await Promise.all(parts.map((p) => classes(p.log)));
    expect(a!.total + b!.total).toBe(whole.total);
    for (const [k, count] of whole.n) expect((a!.n.get(k) ?? 0) + (b!.n.get(k) ?? 0)).toBe(count);
    expect(whole.n.size).toBeGreaterThan(2);
    // The ground-truth annotation (the objects the rays' ids name) is copied to each part.
    const [ann] = await app.services.call('annotations.list', { logId: id });
    for (const p of parts) {
      const copied = await app.services.call('annotations.list', { logId: p.log });
      expect(copied.map((x) => [x.name, x.count])).toEqual([[ann!.name, ann!.count]]);
    }
  });
});
