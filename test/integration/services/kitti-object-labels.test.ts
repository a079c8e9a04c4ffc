/**
 * KITTI object boxes in and out of a scan's labels: a constructed scan (a ground grid and a
 * 2 × 1 × 1 m block of returns at a known place), a calibration with KITTI's axis swap (camera
 * x = −velodyne y, y = −z, z = x, plus an offset) and a label file written by hand in the camera
 * frame. The block's returns get the box's class; the written file reads back to the same boxes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectApiError, useAppServices } from '../../helpers/app-services';
import { SiteClass } from '../../../src-common/classes';

describe('KITTI object labels', () => {
  const fx = useAppServices({ workers: 1, prefix: 'thicket-kitti-objects-', project: 'k.thicket' });
  const calib = 'P2: 1 0 0 0 0 1 0 0 0 0 1 0\nR0_rect: 1 0 0 0 1 0 0 0 1\nTr_velo_to_cam: 0 -1 0 0 0 0 -1 -0.08 1 0 0 -0.27\n';
  // The block: velodyne centre (10, 2, 0.5), 2 m along x, 1 m across, 1 m high. In the camera
  // frame its bottom centre is (−2, −0.08, 9.73) and its heading (velodyne +x = camera +z) gives ry = −π/2.
  const labels = [
    'Medium_shrub 0.00 0 -10 0 0 0 0 1 1 2 -2 -0.08 9.73 -1.5707963',
    'Car 0.00 0 -10 0 0 0 0 1.5 1.6 3.9 5 1.65 20 0',
    'DontCare -1 -1 -10 0 0 0 0 -1 -1 -1 -1000 -1000 -1000 -10',
  ].join('\n');
  let block = 0;

  it('labels the returns inside each box with its class and object, the rest unlabelled', async () => {
    const { services } = fx;
    const pts: number[] = [];
    for (let x = -20; x <= 30; x += 0.5) for (let y = -20; y <= 20; y += 0.5) pts.push(x, y, -1.7, 0.2); // ground
    for (let x = 9.05; x < 11; x += 0.1) for (let y = 1.55; y < 2.5; y += 0.1) for (let z = 0.05; z < 1; z += 0.3) { pts.push(x, y, z, 0.5); block++; }
    const bin = join(fx.dir, 'scan.bin');
    writeFileSync(bin, new Uint8Array(new Float32Array(pts).buffer));
    const { job } = await services.call('logs.importFile', { path: bin, profileId: 'hdl64e', rebuildMisses: false } as never);
    const done = await services.whenJobSettled(job.id);
    expect(done.state, done.error ?? '').toBe('done');
    const log = (done.result as { log: number }).log;
    writeFileSync(join(fx.dir, 'calib.txt'), calib);
    writeFileSync(join(fx.dir, '000000.txt'), labels);
    await expectApiError(services.call('labels.import', { logId: log, path: join(fx.dir, '000000.txt') }), 'bad_input', 'calibration');
    const v = await services.call('labels.import', { logId: log, path: join(fx.dir, '000000.txt'), calibration: join(fx.dir, 'calib.txt') });
    expect(v.counts).toEqual([{ class: SiteClass.mediumShrub, points: block }]);
    expect(v.objects).toBe(2); // the car's box holds ground returns: an object of class 0
    expect(v.note).toContain('Car');
    const cloud = await services.call('labels.cloud', { logId: log });
    const box = cloud.entries.find((e) => e.class === SiteClass.mediumShrub)!;
    expect(box.box.center[0]).toBeCloseTo(10, 6);
    expect(box.box.center[1]).toBeCloseTo(2, 6);
    expect(box.box.center[2]).toBeCloseTo(0.5, 6);
    expect(box.box.size).toEqual([2, 1, 1]);
    expect(box.box.yaw).toBeCloseTo(0, 6);

    // Out and back in: the same boxes, the same file.
    const out = join(fx.dir, 'out.txt');
    await services.call('labels.export', { logId: log, path: out, format: 'kitti-object', force: false, calibration: join(fx.dir, 'calib.txt') });
    const text = readFileSync(out, 'utf8');
    expect(text.split('\n')[0]).toMatch(/^Medium_shrub 0 0 -10 0 0 0 0 1 1 2 -2 -0\.08 9\.73 -1\.570796/);
    const again = await services.call('labels.import', { logId: log, path: out, calibration: join(fx.dir, 'calib.txt') });
    const cmp = await services.call('labels.compare', { logId: log, a: v.version, b: again.version });
    expect([cmp.classChanged, cmp.objectChanged]).toEqual([0, 0]);
    const out2 = join(fx.dir, 'out2.txt');
    await services.call('labels.export', { logId: log, path: out2, format: 'kitti-object', force: false, calibration: join(fx.dir, 'calib.txt') });
    expect(readFileSync(out2, 'utf8')).toBe(text);
  }, 60_000);

  it('refuses a label line or a calibration it cannot read, naming the file and line', async () => {
    const { services } = fx;
    writeFileSync(join(fx.dir, 'bad.txt'), 'Car 0 0 -10 0 0 0 0 1 1\n');
    await expectApiError(services.call('labels.import', { logId: 1, path: join(fx.dir, 'bad.txt'), format: 'kitti-object', calibration: join(fx.dir, 'calib.txt') }), 'bad_input', /bad\.txt: line 1: 10 fields/);
    writeFileSync(join(fx.dir, 'nocalib.txt'), 'P2: 1 0 0 0 0 1 0 0 0 0 1 0\n');
    await expectApiError(services.call('labels.import', { logId: 1, path: join(fx.dir, '000000.txt'), calibration: join(fx.dir, 'nocalib.txt') }), 'bad_input', 'no Tr_velo_to_cam');
  });
});
