import { describe, expect, it } from 'vitest';
import type { StudySensorResult } from '../../../src-main/api/contract';
import { cellColour, defaultAxes, metricScale, sliceChoices, sweepGrid, sweepGroups, varyingKeys } from '../../../src-renderer/components/studies/sweep-grid';
import {
  METRICS,
  defaultPanels,
  formatMetric,
  metricValue,
  mountLabel,
  openRun,
  outcomeText,
  parseRunsQuery,
  rankValue,
  reportFileName,
  resultSummary,
  studySensors,
} from '../../../src-renderer/components/studies/study-format';
import { viridis } from '../../../src-common/colormaps';

function result(seq: number, profile: string, mount: Partial<StudySensorResult['mount']>, over: Partial<StudySensorResult> = {}): StudySensorResult {
  return {
    seq,
    profile,
    mount: { height: 2, pitchDeg: 0, yawDeg: 0, x: 0, y: 0, ...mount },
    cellsObserved: 1000 + seq,
    pathLength: 30 + seq,
    timeToGoal: 20 + seq,
    collisions: 0,
    falseObstacles: seq,
    missedObstacles: 0,
    replans: 2,
    obstacles: 3,
    outcome: 'goal',
    lethalCells: 10,
    scans: 100,
    points: 5000,
    endTime: 20 + seq,
    collidedWith: null,
    ...over,
  };
}

// vlp16 swept over height 1, 2 × pitch −5, 0, 5 (height slowest, as the form and CLI cross them); lms291 at one mount
const heights = [1, 2], pitches = [-5, 0, 5];
const vlp = heights.flatMap((h, i) => pitches.map((p, j) => result(3 * i + j, 'vlp16', { height: h, pitchDeg: p })));
const results = [...vlp, result(6, 'lms291-180-1', {})];

describe('sweep groups and axes', () => {
  it('finds the swept profiles and the fields that vary', () => {
    const g = sweepGroups(results);
    expect(g.map((x) => [x.profile, x.varying, x.runs.length])).toEqual([['vlp16', ['height', 'pitchDeg'], 6]]);
    expect(varyingKeys(g)).toEqual(['height', 'pitchDeg']);
    expect(sweepGroups([result(0, 'a', {}), result(1, 'b', {})])).toEqual([]);
    expect(sweepGroups([result(0, 'a', {}), result(1, 'a', {})])).toEqual([]); // same mount twice: nothing swept
  });

  it('default axes: height down the rows, pitch across; else the next fields', () => {
    expect(defaultAxes(['height', 'pitchDeg'])).toEqual({ y: 'height', x: 'pitchDeg' });
    expect(defaultAxes(['pitchDeg', 'yawDeg'])).toEqual({ y: 'pitchDeg', x: 'yawDeg' });
    expect(defaultAxes(['yawDeg'])).toEqual({ y: 'yawDeg', x: null });
    expect(defaultAxes(['height', 'yawDeg', 'x'])).toEqual({ y: 'height', x: 'yawDeg' });
  });
});

describe('sweepGrid', () => {
  const [group] = sweepGroups(results);

  it('rows highest first, columns ascending, each cell its run and metric', () => {
    const g = sweepGrid(group!, 'height', 'pitchDeg', 'timeToGoal');
    expect(g.ys).toEqual([2, 1]);
    expect(g.xs).toEqual([-5, 0, 5]);
    expect(g.cells.map((row) => row.map((c) => c.seq))).toEqual([
      [3, 4, 5],
      [0, 1, 2],
    ]);
    expect(g.cells[0]![2]).toEqual({ seq: 5, value: 25, rank: 25, xv: 5, yv: 2 });
  });

  it('a one-field sweep is a single column; missing combinations are empty cells', () => {
    const g = sweepGrid(group!, 'pitchDeg', null, 'falseObstacles');
    expect(g.xs).toEqual([null]);
    // height (not an axis) is held at its lowest value unless the slice says otherwise
    expect(g.cells.map((r) => r[0]!.seq)).toEqual([2, 1, 0]);
    expect(sweepGrid(group!, 'pitchDeg', null, 'falseObstacles', { height: 2 }).cells.map((r) => r[0]!.seq)).toEqual([5, 4, 3]);
    const partial = sweepGroups(results.filter((r) => r.seq !== 4))[0]!;
    expect(sweepGrid(partial, 'height', 'pitchDeg', 'replans').cells[0]![1]).toEqual({ seq: null, value: null, rank: null, xv: 0, yv: 2 });
  });

  it('closed loop: path length ranks only runs that reached the goal (the value still shows)', () => {
    const mixed = sweepGroups(results.map((r) => (r.seq === 3 ? { ...r, outcome: 'collision' as const, timeToGoal: null } : r)))[0]!;
    const closed = sweepGrid(mixed, 'height', 'pitchDeg', 'pathLength', {}, 'closed').cells[0]![0]!;
    expect([closed.seq, closed.value, closed.rank]).toEqual([3, 33, null]);
    expect(sweepGrid(mixed, 'height', 'pitchDeg', 'pathLength', {}, 'open').cells[0]![0]!.rank).toBe(33);
    expect(rankValue(result(0, 'a', {}, { outcome: 'timeout' }), 'pathLength', 'closed')).toBeNull();
    expect(rankValue(result(0, 'a', {}, { outcome: 'timeout' }), 'falseObstacles', 'closed')).toBe(0);
  });

  it('slice choices are the varying fields off the axes', () => {
    const g = sweepGroups(results);
    expect(sliceChoices(g, 'pitchDeg', null)).toEqual([{ key: 'height', values: [1, 2] }]);
    expect(sliceChoices(g, 'height', 'pitchDeg')).toEqual([]);
  });
});

describe('metric colours', () => {
  it('bright means better whichever way the metric runs; null stays grey', () => {
    const lower = metricScale([10, 20, null, 30], 'timeToGoal');
    expect([lower(10), lower(20), lower(30), lower(null)]).toEqual([1, 0.5, 0, null]);
    const higher = metricScale([10, 20, 30], 'cellsObserved');
    expect([higher(10), higher(30)]).toEqual([0, 1]);
    expect(metricScale([4, 4], 'replans')(4)).toBe(0.5);
    const neither = metricScale([100, 300], 'lethalCells'); // more lethal cells is neither better nor worse
    expect([neither(100), neither(300)]).toEqual([0, 1]);
    expect(metricScale([null], 'timeToGoal')(null)).toBeNull();
    expect(cellColour(1)).toEqual(viridis(1));
    expect(cellColour(null)).toEqual([0.22, 0.23, 0.26]);
  });
});

describe('study format', () => {
  it('metrics: the issue’s seven first, values and their text', () => {
    expect(METRICS.slice(0, 7).map((m) => m.key)).toEqual(['cellsObserved', 'pathLength', 'timeToGoal', 'collisions', 'falseObstacles', 'missedObstacles', 'replans']);
    const r = result(2, 'vlp16', {}, { timeToGoal: null, cellsObserved: 12345, pathLength: 33.456 });
    expect(metricValue(r, 'timeToGoal')).toBeNull();
    expect(formatMetric('timeToGoal', null)).toBe('—');
    expect(formatMetric('cellsObserved', metricValue(r, 'cellsObserved'))).toBe('12,345');
    expect(formatMetric('pathLength', metricValue(r, 'pathLength'))).toBe('33.5');
    expect(formatMetric('timeToGoal', 14.187)).toBe('14.19'); // ties at 0.1 s are common: two decimals
  });

  it('mount and outcome labels', () => {
    expect(mountLabel({ height: 1.5, pitchDeg: -5, yawDeg: 0, x: 0, y: 0 })).toBe('1.5 m · pitch −5°');
    expect(mountLabel({ height: 2, pitchDeg: 10, yawDeg: 30, x: 0.5, y: -0.25 })).toBe('2 m · pitch 10° · yaw 30° · at (0.5, −0.25) m');
    expect(outcomeText(result(0, 'a', {}, { outcome: 'goal', timeToGoal: 64.21 }))).toBe('goal in 64.2 s');
    expect(outcomeText(result(0, 'a', {}, { outcome: 'collision', endTime: 12 }))).toBe('collision at 12.0 s');
  });

  it('the list summary counts outcomes and names the fastest run', () => {
    const rs = [result(0, 'vlp16', {}, { timeToGoal: 40 }), result(1, 'hdl64e', {}, { timeToGoal: 35.04, falseObstacles: 12 }), result(2, 'lms', {}, { outcome: 'collision', timeToGoal: null, falseObstacles: 0 })];
    expect(resultSummary(rs)).toBe('2/3 reached the goal · 1 collided · fastest hdl64e 35.0 s · false obstacles 0–12');
    expect(resultSummary(null)).toBe('');
    expect(studySensors({ definition: { sensors: [{ profileId: 'a' }, { profileId: 'a' }, { profileId: 'b' }] } } as never)).toEqual({ profiles: ['a', 'b'], mounts: 2 });
  });

  it('default panels: the first mount of each profile, or a one-profile sweep’s first four', () => {
    expect(defaultPanels(results)).toEqual([0, 6]);
    expect(defaultPanels(vlp)).toEqual([0, 1, 2, 3]);
    const five = ['a', 'b', 'c', 'd', 'e'].map((p, i) => result(i, p, {}));
    expect(defaultPanels(five)).toEqual([0, 1, 2, 3]);
  });

  it('opening a run adds a panel, or replaces one when four are up; the ?runs= query', () => {
    expect(openRun([0, 6], 3)).toEqual([0, 6, 3]);
    expect(openRun([0, 6], 6)).toEqual([0, 6]);
    expect(openRun([0, 1, 2, 3], 5)).toEqual([0, 1, 2, 5]);
    expect(openRun([0, 1, 2, 3], 5, 0)).toEqual([5, 1, 2, 3]);
    const valid = new Set([0, 1, 2, 3, 4, 5, 6]);
    expect(parseRunsQuery('3,1,3,x,99,6,0,2', valid)).toEqual([3, 1, 6, 0]);
    expect(parseRunsQuery('', valid)).toBeNull();
    expect(parseRunsQuery(['1'], valid)).toBeNull();
  });

  it('report file names are safe', () => {
    expect(reportFileName(7, 'vlp16 vs hdl64e in Reference site (seed 1)')).toBe('study-7-vlp16-vs-hdl64e-in-reference-site-seed-1.html');
    expect(reportFileName(2, '///')).toBe('study-2.html');
  });
});
