/**
 * A KITTI odometry folder (velodyne/NNNNNN.bin, poses.txt, times.txt) imports as one log, one
 * packet per scan at its time and pose: `thicket export --format kitti` round-trips, and a bad
 * folder is refused naming the file, the place and the reason.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';
import { expectApiError, useAppServices } from '../../helpers/app-services';

const app = useAppServices({ workers: 2, project: 'kitti-folder.thicket' });

async function done(jobId: number): Promise<Record<string, unknown>> {
  const job = await app.services.whenJobSettled(jobId);
  if (job.state !== 'done') throw new Error(`job ${job.kind} ${job.state}: ${job.error}`);
  return job.result!;
}
const importPath = async (path: string, extra: Record<string, unknown> = {}) => done((await app.services.call('logs.importFile', { path, ...extra } as never)).job.id);

/** A scan of `n` points on a ring of radius r (float32 x, y, z, i). */
const ring = (n: number, r: number): Uint8Array => new Uint8Array(Float32Array.from({ length: 4 * n }, (_, i) => {
  const k = i >> 2, a = (2 * Math.PI * k) / n;
  return [r * Math.cos(a), r * Math.sin(a), -1, 0.5][i & 3]!;
}).buffer);

describe('KITTI folders of scans', () => {
  it('velodyne/*.bin with poses.txt and times.txt: one packet per scan at its time and pose', async () => {
    const dir = join(app.dir, 'seq00');
    mkdirSync(join(dir, 'velodyne'), { recursive: true });
    for (let k = 0; k < 3; k++) writeFileSync(join(dir, 'velodyne', `${String(k).padStart(6, '0')}.bin`), ring(100 + k, 10));
    writeFileSync(join(dir, 'poses.txt'), [0, 1, 2].map((k) => `1 0 0 ${2 * k} 0 1 0 0 0 0 1 0`).join('\n') + '\n');
    writeFileSync(join(dir, 'times.txt'), '0.000000e+00\n1.036700e-01\n2.073400e-01\n');
    const r = await importPath(dir);
    expect(r).toMatchObject({ format: 'kitti-bin', packets: 3, hits: 303, misses: 0 });
    const log = await app.services.call('logs.get', { id: Number(r.log) });
    expect(log.info).toMatchObject({ folder: 'seq00', scanFiles: 3, times: 'times.txt', folderPoses: 'poses.txt', posesPlacement: 'per-packet' });
    const chunks = [...app.services.requireSession().store.logs.chunks(Number(r.log))];
    const times = chunks.flatMap((c) => Array.from(c.packetTime));
    expect(times.map((t) => Number(t.toFixed(6)))).toEqual([0, 0.10367, 0.20734]);
    const x = chunks.flatMap((c) => Array.from({ length: c.packetCount }, (_, k) => c.packetPose[7 * k]!));
    expect(x).toEqual([0, 2, 4]);
  });

  it('.bin files in the folder itself without side files: 0.1 s apart, identity poses', async () => {
    const dir = join(app.dir, 'bare');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.bin'), ring(50, 5));
    writeFileSync(join(dir, 'b.bin'), ring(60, 5));
    const r = await importPath(dir);
    expect(r).toMatchObject({ packets: 2, hits: 110 });
    expect((await app.services.call('logs.get', { id: Number(r.log) })).durationS).toBeGreaterThanOrEqual(0.1);
  });

  it('bad folders are refused before any log exists: no scans, a times.txt of the wrong length, a poses row count that fits nothing', async () => {
    const before = (await app.services.call('project.current', {}))!.counts.driveLogs;
    const empty = join(app.dir, 'empty');
    mkdirSync(empty);
    await expectApiError(app.services.call('logs.importFile', { path: empty }), 'bad_input', `${empty}: is a folder without KITTI scans: a folder imports as velodyne/NNNNNN.bin (or NNNNNN.bin) with poses.txt and times.txt, as \`thicket export --format kitti\` writes it; otherwise give a file`);
    const times = join(app.dir, 'times');
    mkdirSync(times);
    writeFileSync(join(times, '000000.bin'), ring(10, 3));
    writeFileSync(join(times, 'times.txt'), '0\n0.1\n');
    await expectApiError(app.services.call('logs.importFile', { path: times }), 'bad_input', 'times/times.txt, line 3: 2 time(s) for 1 scan(s): one line per scan');
    const poses = join(app.dir, 'poses');
    mkdirSync(poses);
    for (const f of ['000000.bin', '000001.bin']) writeFileSync(join(poses, f), ring(10, 3));
    writeFileSync(join(poses, 'poses.txt'), '1 0 0 0 0 1 0 0 0 0 1 0\n1 0 0 1 0 1 0 0 0 0 1 0\n1 0 0 2 0 1 0 0 0 0 1 0\n');
    const { job } = await app.services.call('logs.importFile', { path: poses });
    expect((await app.services.whenJobSettled(job.id)).error).toMatch(/poses\/poses\.txt.*3 pose row\(s\)/);
    await expectApiError(app.services.call('logs.importFile', { path: poses, format: 'pcd' }), 'bad_input', 'poses: a folder imports as KITTI scans (kitti-bin), not as pcd');
    expect((await app.services.call('project.current', {}))!.counts.driveLogs).toBe(before);
  });
});

describe.skipIf(!HAS_SHARED_DATA)('a KITTI export imports back', () => {
  it('HDL-32E capture → kitti folder → one log of its revolutions, at the folder\'s poses and times, within the capture\'s world bounds', async () => {
    const cap = await importPath(dataFile('rust_lidar_utils/hdl32_example.pcap'));
    const out = join(app.dir, 'hdl32_kitti');
    const e = await done((await app.services.call('export.start', { source: { kind: 'log', id: Number(cap.log) }, format: 'kitti', path: out })).job.id);
    const back = await importPath(out);
    expect(back).toMatchObject({ format: 'kitti-bin', packets: e.scans, hits: cap.hits, misses: 0 });
    // Scan k's pose is poses.txt's row k and its time times.txt's line k.
    const rows = readFileSync(join(out, 'poses.txt'), 'utf8').trim().split('\n').map((l) => l.split(' ').map(Number));
    const times = readFileSync(join(out, 'times.txt'), 'utf8').trim().split('\n').map(Number);
    const chunks = [...app.services.requireSession().store.logs.chunks(Number(back.log))];
    const pose = chunks.flatMap((c) => Array.from({ length: c.packetCount }, (_, k) => [c.packetPose[7 * k]!, c.packetPose[7 * k + 1]!, c.packetPose[7 * k + 2]!]));
    const time = chunks.flatMap((c) => Array.from(c.packetTime));
    // Every hit lands where the capture had it: the world bounds agree to float32 rounding.
    const [a, b] = await Promise.all([cap.log, back.log].map((id) => app.services.call('logs.get', { id: Number(id) })));
    for (const m of ['min', 'max'] as const) a!.bounds![m].forEach((v, i) => expect(b!.bounds![m][i]).toBeCloseTo(v, 3));
    rows.forEach((r, k) => {
      expect(pose[k]![0]).toBeCloseTo(r[3]!, 9);
      expect(pose[k]![1]).toBeCloseTo(r[7]!, 9);
      expect(pose[k]![2]).toBeCloseTo(r[11]!, 9);
      expect(time[k]).toBeCloseTo(times[k]! - times[0]!, 9);
    });
  });
});
