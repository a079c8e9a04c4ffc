/**
 * PCD export of a labelled cloud: each point's class as PCL's PointXYZL `label` (uint32), read
 * back by an independent reader (loaders.gl) in every DATA form.
 */
import { describe, expect, it } from 'vitest';
import { encodePcd } from '../../../../src-worker/formats/pcd/pcd-encode';
import { decodePcd } from '../../../../src-worker/formats/pcd/pcd';
import { sampleCloud } from '../helpers';
import { readPcdWithLoadersGl } from '../../../helpers/pcd-reader';

describe('encodePcd with classes', () => {
  const cloud = sampleCloud(500, 3);
  const cls = Uint8Array.from({ length: cloud.count }, (_, i) => (i * 37) % 256);
  const labelled = { ...cloud, cls };

  it('declares label as a 4-byte unsigned field after the others', () => {
    const text = new TextDecoder().decode(encodePcd(labelled, 'ascii').subarray(0, 400));
    expect(text).toContain('FIELDS x y z intensity ring time label\n');
    expect(text).toContain('SIZE 4 4 4 4 2 4 4\n');
    expect(text).toContain('TYPE F F F F U F U\n');
    // Without classes the fields are as before.
    expect(new TextDecoder().decode(encodePcd(cloud, 'ascii').subarray(0, 400))).toContain('FIELDS x y z intensity ring time\n');
  });

  it('ascii: the last value of every line is the class', () => {
    const text = new TextDecoder().decode(encodePcd(labelled, 'ascii'));
    const rows = text.slice(text.indexOf('DATA ascii\n') + 11).trim().split('\n');
    expect(rows.map((r) => Number(r.split(' ').at(-1)))).toEqual(Array.from(cls));
  });

  // loaders.gl's ascii parser reads the label column but drops it from what it returns.
  for (const data of ['binary', 'binary_compressed'] as const) {
    it(`${data}: loaders.gl reads every point's class and position; Thicket's decoder still reads the rest`, async () => {
      const bytes = encodePcd(labelled, data);
      const r = await readPcdWithLoadersGl(bytes);
      expect(r.count).toBe(cloud.count);
      expect(r.fields).toEqual(['x', 'y', 'z', 'intensity', 'ring', 'time', 'label']);
      expect(r.label).not.toBeNull();
      expect(Array.from(r.label!.subarray(0, cloud.count))).toEqual(Array.from(cls));
      expect(r.position).toEqual(cloud.xyz);
      const back = decodePcd(bytes, `l.${data}.pcd`);
      expect(back.xyz).toEqual(cloud.xyz);
      expect(back.ring).toEqual(cloud.ring);
      expect(back.time).toEqual(cloud.time);
    });
  }
});
