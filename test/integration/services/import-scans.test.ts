/**
 * Scans on import, on the real Ouster capture with its per-scan SLAM poses (3 scans, 3 KITTI
 * rows): rows placed at each scan's mid-time and interpolated per packet, a range of scans with
 * the poses of its own scan numbers, and a rows file that fits neither packets nor scans.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';
import { useAppServices } from '../../helpers/app-services';
import type { AppServices as Services } from '../../../src-main/services/app-services';

const app = useAppServices({ workers: 1, project: 'scans.thicket' });
const PCAP = dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10_lb_n3.pcap');
const META = dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10.json');
const POSES = dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10_lb_n3_poses_kitti.txt');

type ImportReq = Parameters<Services['call']>[1] & object;
async function importJob(req: ImportReq) {
  const { job } = await app.services.call('logs.importFile', req as never);
  return app.services.whenJobSettled(job.id);
}
async function importDone(req: ImportReq) {
  const final = await importJob(req);
  if (final.state !== 'done') throw new Error(`import ${final.state}: ${final.error}`);
  return final.result as Record<string, number>;
}

/** Translation of each KITTI row (the last column of the 3×4 matrix). */
function rowTranslations(): number[][] {
  return readFileSync(POSES, 'utf8').trim().split('\n').map((l) => {
    const v = l.trim().split(/\s+/).map(Number);
    return [v[3]!, v[7]!, v[11]!];
  });
}

/** Linear interpolation of the rows' translations placed at `mids`, held at both ends. */
function expectedAt(t: number, mids: number[], rows: number[][]): number[] {
  if (t <= mids[0]!) return rows[0]!;
  const last = mids.length - 1;
  if (t >= mids[last]!) return rows[last]!;
  let k = 0;
  while (t > mids[k + 1]!) k++;
  const f = (t - mids[k]!) / (mids[k + 1]! - mids[k]!);
  return [0, 1, 2].map((i) => rows[k]![i]! + f * (rows[k + 1]![i]! - rows[k]![i]!));
}

describe.skipIf(!HAS_SHARED_DATA)('scans of the Ouster lb_n3 capture', () => {
  const base = { path: PCAP, calibrationPath: META, posesPath: POSES };

  it('places the 3 per-scan rows at the 3 scans\' mid-times (within 1e-6 m) and interpolates the packets between', async () => {
    const r = await importDone(base);
    expect(r).toMatchObject({ packets: 192, scans: 3, scansInCapture: 3 });
    const log = await app.services.call('logs.get', { id: r.log! });
    expect(log.info).toMatchObject({ posesPlacement: 'per-scan', scans: '1:3 of 3' });
    const tl = await app.services.call('logs.timeline', { id: r.log!, maxPoses: 1000 });
    expect(Array.from(tl.sweepStart)).toEqual([0, 64, 128]); // 1024 columns / 16 per packet
    expect(tl.trajectory.packet.length).toBe(192);
    const t = tl.packetTime;
    // Mid-times as the import defines them: halfway to the next scan's first packet, the last to the log's end.
    const mids = [0.5 * (t[0]! + t[64]!), 0.5 * (t[64]! + t[128]!), 0.5 * (t[128]! + log.durationS)];
    const rows = rowTranslations();
    let worst = 0;
    for (let p = 0; p < 192; p++) {
      const want = expectedAt(t[p]!, mids, rows);
      for (let i = 0; i < 3; i++) worst = Math.max(worst, Math.abs(tl.trajectory.position[3 * p + i]! - want[i]!));
    }
    expect(worst).toBeLessThan(1e-6);
    // Packets straddle each mid-time: the scan's own row lies between its two neighbours' poses.
    expect(tl.trajectory.position[3 * 94]!).toBeLessThan(rows[1]![0]!);
    expect(tl.trajectory.position[3 * 98]!).toBeGreaterThan(rows[1]![0]!);
  });

  it('--scans 2:3 keeps 128 packets with the rows of scans 2 and 3', async () => {
    const all = await importDone(base);
    const r = await importDone({ ...base, scans: { from: 2, to: 3 } });
    expect(r).toMatchObject({ packets: 128, scans: 2, scansInCapture: 3 });
    const whole = await app.services.call('logs.timeline', { id: all.log!, maxPoses: 1000 });
    const part = await app.services.call('logs.timeline', { id: r.log!, maxPoses: 1000 });
    // Same packets, same poses as packets 64… of the whole capture (per-scan rows keep their scan numbers).
    for (let p = 0; p < 128; p++) {
      for (let i = 0; i < 3; i++) expect(part.trajectory.position[3 * p + i]!).toBeCloseTo(whole.trajectory.position[3 * (p + 64) + i]!, 9);
    }
    const one = await importDone({ path: PCAP, calibrationPath: META, scans: { from: 3, to: null } });
    expect(one).toMatchObject({ packets: 64, scans: 1 });
  });

  it('a scan range beyond the capture and a rows file that fits neither packets nor scans fail and leave no log', async () => {
    const before = (await app.services.call('logs.list', {})).length;
    const out = await importJob({ path: PCAP, calibrationPath: META, scans: { from: 2, to: 5 } });
    expect(out.state).toBe('failed');
    expect(out.error).toContain('OS-1-128_v2.3.0_1024x10_lb_n3.pcap: scans 2:5 asked for, but the capture has 3 scan(s)');
    const two = readFileSync(POSES, 'utf8').trim().split('\n').slice(0, 2).join('\n');
    const bad = await importJob({ path: PCAP, calibrationPath: META, poses: { name: 'two-rows.txt', text: two } });
    expect(bad.state).toBe('failed');
    expect(bad.error).toBe("two-rows.txt: 2 pose row(s) without times fit neither the capture's 192 packet(s) nor its 3 scan(s) (one row per packet or one per scan, in order)");
    expect((await app.services.call('logs.list', {})).length).toBe(before);
  });
});
