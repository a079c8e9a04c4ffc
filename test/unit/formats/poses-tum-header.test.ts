/**
 * TUM trajectories open with comments, and a comment that names the columns may carry more
 * words than the rows have columns: the rows set the width, and a comment whose columns do not
 * fit them is prose.
 */
import { describe, expect, it } from 'vitest';
import { parsePosesFile } from '../../../src-worker/formats/poses-file';
import { decodeErrorOf } from './helpers';

const ROWS = '1305031102.175304 1.3405 0.6266 1.6575 0.6574 0.6126 -0.2949 -0.3248\n1305031102.211214 1.3303 0.6256 1.6464 0.6579 0.6161 -0.2932 -0.3189\n';

describe('TUM header comments', () => {
  it('a header comment with words after the eight columns is still TUM (was read as a 14-column header)', () => {
    const text = `# ground truth trajectory\n# timestamp tx ty tz qx qy qz qw (metres, world frame of the mocap, 100 Hz)\n${ROWS}`;
    const f = parsePosesFile(text, 'groundtruth.txt');
    expect(f.kind).toBe('tum');
    expect(Array.from(f.times!)).toEqual([1305031102.175304, 1305031102.211214]);
    expect(f.poses[0]).toBeCloseTo(1.3405, 12);
    const n = Math.hypot(0.6574, 0.6126, -0.2949, -0.3248);
    expect(f.poses[6]).toBeCloseTo(-0.3248 / n, 12);
  });

  it('words before the column names put them past the rows: the comment is prose, the rows are TUM by width', () => {
    const f = parsePosesFile(`# format: timestamp tx ty tz qx qy qz qw\n${ROWS}`, 'traj.txt');
    expect(f.kind).toBe('tum');
    expect(f.times![1]).toBe(1305031102.211214);
  });

  it('the plain TUM comment and an uncommented CSV header keep their meaning; a short row is named by its line', () => {
    expect(parsePosesFile(`# timestamp tx ty tz qx qy qz qw\n${ROWS}`, 't.txt').kind).toBe('tum');
    expect(parsePosesFile('time,x,y,z,qx,qy,qz,qw,extra\n0,0,0,0,0,0,0,1,5\n', 'p.csv').kind).toBe('csv');
    const e = decodeErrorOf(() => parsePosesFile(`# timestamp tx ty tz qx qy qz qw (world)\n${ROWS}1305031102.3 1 2 3\n`, 'short.txt'));
    expect(e.message).toBe('short.txt, line 4: 4 columns, expected 8');
  });
});
