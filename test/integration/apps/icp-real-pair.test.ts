import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';
import { prepareTarget, ransacIcp, voxelFilter } from '../../../src-worker/apps/icp';
import { poseError } from '../../../src-worker/apps/scan-matching';

/** x, y, z of a binary PCD of float32 x, y, z, intensity. */
function readPcd(path: string): Float64Array {
  const buf = readFileSync(path);
  const start = buf.indexOf('DATA binary\n') + 'DATA binary\n'.length;
  const n = Math.floor((buf.length - start) / 16);
  const out = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) for (let a = 0; a < 3; a++) out[3 * i + a] = buf.readFloatLE(start + 16 * i + 4 * a);
  return out;
}

describe.skipIf(!HAS_SHARED_DATA)('scan matching on a real HDL-32E pair (fast_gicp keyframes with their relative pose)', () => {
  it('registers the second keyframe onto the first within 5 cm and 6 mrad of the published relative pose', () => {
    const a = readPcd(dataFile('fast_gicp/251370668.pcd'));
    const b = readPcd(dataFile('fast_gicp/251371071.pcd'));
    const rows = readFileSync(dataFile('fast_gicp/relative.txt'), 'utf8').trim().split('\n').map((l) => l.trim().split(/\s+/).map(Number));
    const truth = Float64Array.from([...rows.slice(0, 3).flatMap((r) => r.slice(0, 3)), rows[0]![3]!, rows[1]![3]!, rows[2]![3]!]);
    const voxel = 0.3;
    const fa = voxelFilter(a, a.length / 3, voxel), fb = voxelFilter(b, b.length / 3, voxel);
    const r = ransacIcp(fb, prepareTarget(fa, 0.9), { maxCorrespondenceDistance: 1, iterations: 50, minObjectiveChange: 1e-10, ransacTrials: 2, inlierThreshold: 0.5, sampleFraction: 0.5, seed: 1 });
    const e = poseError(r.transform, truth);
    expect(Math.hypot(truth[9]!, truth[10]!, truth[11]!)).toBeGreaterThan(0.45); // the keyframes are 0.5 m apart
    expect(e.position).toBeLessThan(0.05);
    expect(e.angle).toBeLessThan(6e-3);
  });
});
