/**
 * Importing a second sensor at its extrinsic on the vehicle: RELLIS-3D's Ouster OS1-64 scan is the
 * vehicle frame and its Velodyne VLP-32C scan of the same instant comes in through vel2os1.yaml.
 * The direction is checked by how well the two clouds overlap: the median, over VLP-32C points, of
 * the distance to the plane fitted to the 10 nearest OS1 points.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectApiError, useAppServices } from '../../helpers/app-services';
import { dataFile, HAS_SHARED_DATA } from '../../helpers/shared-data';
import { KdTree } from '../../../src-worker/fit/kd-tree';
import { symmetricEigenvalues3, symmetricEigenvector3 } from '../../../src-worker/fit/eigen3';
import type { AppServices } from '../../../src-main/services/app-services';
import { cliTempHome, runCli, runCliOk } from '../../helpers/cli';

async function importLog(services: AppServices, req: Record<string, unknown>): Promise<number> {
  const { job } = await services.call('logs.importFile', req as never);
  const done = await services.whenJobSettled(job.id);
  expect(done.state, done.error ?? '').toBe('done');
  return (done.result as { log: number }).log;
}

async function cloud(services: AppServices, id: number): Promise<Float32Array> {
  return (await services.call('logs.cloud', { id, budget: 2_000_000 })).positions;
}

/** Median over every 7th query point within 40 m of the distance to the plane of its 10 nearest reference points (those within 1 m). */
function medianPointToPlane(reference: Float32Array, query: Float32Array): { median: number; used: number } {
  const tree = new KdTree(reference, 3);
  const d: number[] = [];
  const cov = new Float64Array(6), ev = new Float64Array(3), n = new Float64Array(3);
  for (let i = 0; i < query.length / 3; i += 7) {
    const x = query[3 * i]!, y = query[3 * i + 1]!, z = query[3 * i + 2]!;
    if (Math.hypot(x, y, z) > 40) continue;
    const found = tree.radius(x, y, z, 1);
    if (found < 10) continue;
    const near = Array.from(tree.found.subarray(0, found), (j) => [reference[3 * j]!, reference[3 * j + 1]!, reference[3 * j + 2]!])
      .map((p) => ({ p, d2: (p[0]! - x) ** 2 + (p[1]! - y) ** 2 + (p[2]! - z) ** 2 }))
      .sort((a, b) => a.d2 - b.d2)
      .slice(0, 10)
      .map((e) => e.p);
    const c = [0, 1, 2].map((k) => near.reduce((s, p) => s + p[k]!, 0) / near.length);
    cov.fill(0);
    for (const p of near) {
      const [a, b, e] = [p[0]! - c[0]!, p[1]! - c[1]!, p[2]! - c[2]!];
      [a * a, a * b, a * e, b * b, b * e, e * e].forEach((v, k) => (cov[k] = cov[k]! + v));
    }
    symmetricEigenvalues3(cov, 0, ev);
    if (!symmetricEigenvector3(cov, 0, ev[0]!, n)) continue;
    d.push(Math.abs(n[0]! * (x - c[0]!) + n[1]! * (y - c[1]!) + n[2]! * (z - c[2]!)));
  }
  d.sort((a, b) => a - b);
  return { median: d[Math.floor(d.length / 2)]!, used: d.length };
}

describe.skipIf(!HAS_SHARED_DATA)('mounts on import (RELLIS-3D OS1-64 + VLP-32C, vel2os1.yaml)', () => {
  const fx = useAppServices({ workers: 1, prefix: 'thicket-mount-', project: 'mount.thicket' });
  const extrinsic = dataFile('rellis3d/vel2os1.yaml');

  // Measured: 8.5 cm with the extrinsic as written, 15.9 cm inverted, 41 cm without a mount (4,569
  // points; a grass, bush and tree scene, so the planes of 10 OS1 points are rough). With the file's
  // translation moved by ±0.1 m in z the median rises to 9.2 and 12.0 cm: the file's is the minimum.
  it('places the VLP-32C at the extrinsic: 8.5 cm median point-to-plane distance to the OS1, 15.9 cm with the inverse, 41 cm unmounted', async () => {
    const { services } = fx;
    const os1 = await importLog(services, { path: dataFile('rellis3d/000104.bin'), rebuildMisses: false });
    const vlp = await importLog(services, { path: dataFile('rellis3d/vel000104.bin'), extrinsicPath: extrinsic, rebuildMisses: false });
    const inverse = await importLog(services, { path: dataFile('rellis3d/vel000104.bin'), extrinsicPath: extrinsic, extrinsicInverse: true, rebuildMisses: false });
    const unmounted = await importLog(services, { path: dataFile('rellis3d/vel000104.bin'), rebuildMisses: false });
    const reference = await cloud(services, os1);
    const right = medianPointToPlane(reference, await cloud(services, vlp));
    const wrong = medianPointToPlane(reference, await cloud(services, inverse));
    const none = medianPointToPlane(reference, await cloud(services, unmounted));
    expect(right.used).toBeGreaterThan(4000);
    expect(right.median).toBeCloseTo(0.085, 2); // ± 5 mm
    expect(wrong.median).toBeCloseTo(0.159, 2);
    expect(none.median).toBeGreaterThan(0.3);
    expect(wrong.median).toBeGreaterThan(1.6 * right.median);
    // The log records the mount it was placed with (simulate --poses-from recovers the vehicle from it).
    const info = (await services.call('logs.get', { id: vlp })).info;
    expect(info.mountSource).toBe('extrinsic vel2os1.yaml');
    expect((info.mount as number[])[5]).toBeCloseTo(0.9999999421723929, 12);
  });

  it('--mount with the same numbers gives the same packet pose (within 1e-6)', async () => {
    const { services } = fx;
    // vel2os1.yaml as x, y, z, roll, pitch, yaw (degrees), from its quaternion.
    const [qx, qy, qz, qw] = [0.00021657374105704352, -0.0001811754269666679, 0.9999999421723929, 0.00018954284517174916];
    const roll = Math.atan2(2 * (qw * qx + qy * qz), 1 - 2 * (qx * qx + qy * qy));
    const pitch = Math.asin(2 * (qw * qy - qz * qx));
    const yaw = Math.atan2(2 * (qw * qz + qx * qy), 1 - 2 * (qy * qy + qz * qz));
    const deg = (r: number) => (r * 180) / Math.PI;
    const mount = [-0.25209722874775564, 0.0010963734677045065, -0.09197253613570998, deg(roll), deg(pitch), deg(yaw)];
    const a = await importLog(services, { path: dataFile('rellis3d/vel000104.bin'), mount, rebuildMisses: false });
    const b = await importLog(services, { path: dataFile('rellis3d/vel000104.bin'), extrinsicPath: extrinsic, rebuildMisses: false });
    const [pa, pb] = [await cloud(services, a), await cloud(services, b)];
    expect(pa.length).toBe(pb.length);
    let worst = 0;
    for (let i = 0; i < pa.length; i++) worst = Math.max(worst, Math.abs(pa[i]! - pb[i]!));
    expect(worst).toBeLessThan(1e-4); // float32 positions up to ≈ 100 m: a few ulps
  });

  it('refuses an extrinsic that is not a rotation, naming the file and line, and leaves the project unchanged', async () => {
    const { services } = fx;
    const bad = join(fx.dir, 'sheared.txt');
    writeFileSync(bad, '1 0 0 0\n0.01 1 0 0\n0 0 1 0\n0 0 0 1\n');
    const before = (await services.call('project.current', {}))!.counts;
    await expectApiError(services.call('logs.importFile', { path: dataFile('rellis3d/vel000104.bin'), extrinsicPath: bad }), 'bad_input', /^sheared\.txt, line 2: not a rotation/);
    await expectApiError(services.call('logs.importFile', { path: dataFile('rellis3d/vel000104.bin'), extrinsicPath: join(fx.dir, 'missing.yaml') }), 'not_found', /missing\.yaml: no such file/);
    await expectApiError(services.call('logs.importFile', { path: dataFile('rellis3d/vel000104.bin'), mount: [0, 0, 0, 0, 0, 0], extrinsicPath: extrinsic }), 'bad_input', /either mount .* or an extrinsic file/);
    expect((await services.call('project.current', {}))!.counts).toEqual(before);
  });
});

describe.skipIf(!HAS_SHARED_DATA)('thicket import --mount / --extrinsic (CLI)', () => {
  const { dir, env } = cliTempHome('thicket-mount-cli-');
  it('imports with --extrinsic and refuses a bad --mount (usage, 2) or a mirror (the file and line, 1), storing nothing', () => {
    const project = join(dir, 'cli.thicket');
    runCliOk(['project', 'create', '--project', project, '--json'], env);
    const ok = runCliOk(['import', dataFile('rellis3d/vel000104.bin'), '--project', project, '--extrinsic', dataFile('rellis3d/vel2os1.yaml'), '--extrinsic-inverse', '--json'], env);
    expect(ok.json).toMatchObject({ log: 1, packets: 1, hits: 37_334 });
    const short = runCli(['import', dataFile('rellis3d/vel000104.bin'), '--project', project, '--mount', '1,2', '--json'], env);
    expect(short.status).toBe(2);
    expect(short.stderr).toContain('--mount: expected 6 numbers x,y,z,roll,pitch,yaw (metres, degrees), got 2');
    const mirror = join(dir, 'mirror.txt');
    writeFileSync(mirror, '1 0 0 0\n0 1 0 0\n0 0 -1 0\n0 0 0 1\n');
    const bad = runCli(['import', dataFile('rellis3d/vel000104.bin'), '--project', project, '--extrinsic', mirror, '--json'], env);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('mirror.txt, line 1: not a rotation: det R = -1.00000');
    const info = runCliOk(['project', 'info', '--project', project, '--json'], env);
    expect((info.json as { counts: { driveLogs: number } }).counts.driveLogs).toBe(1);
  });
});
