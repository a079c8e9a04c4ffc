// `thicket study` end to end on the small reference site that `thicket demo --small` builds.
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliTempHome, runCli, runCliOk } from '../../helpers/cli';

const tmp = cliTempHome();
const { env } = tmp;
const project = join(tmp.dir, 'demo.thicket');
let scene = 0;

beforeAll(() => {
  const r = runCliOk(['demo', '--project', project, '--small', '--seed', '2', '--no-experiment', '--json', '--quiet'], env);
  scene = (r.json as { site: { scene: number } }).site.scene;
}, 120_000);

describe('thicket study', () => {
  it('prints {study, sensors: [{profile, mount, cellsObserved, pathLength, timeToGoal, collisions, falseObstacles, missedObstacles, replans, outcome}]} for profiles × mounts, and writes the report', () => {
    const mounts = join(tmp.dir, 'mounts.json');
    writeFileSync(mounts, JSON.stringify({ height: [1.5, 2.5], pitchDeg: [0] }));
    const report = join(tmp.dir, 'study.html');
    const r = runCliOk(['study', '--project', project, '--scene', String(scene), '--profiles', 'lms291,vlp16', '--mounts', mounts, '--seconds', '0.5', '--workers', '2', '--report', report, '--json'], env);
    const out = r.json as { study: number; sensors: Record<string, unknown>[] };
    expect(Object.keys(out)).toEqual(['study', 'sensors']);
    expect(out.sensors.map((s) => [s.profile, (s.mount as { height: number }).height])).toEqual([
      ['lms291-180-1', 1.5],
      ['lms291-180-1', 2.5],
      ['vlp16', 1.5],
      ['vlp16', 2.5],
    ]);
    for (const s of out.sensors) {
      expect(Object.keys(s)).toEqual(['profile', 'mount', 'cellsObserved', 'pathLength', 'timeToGoal', 'collisions', 'falseObstacles', 'missedObstacles', 'replans', 'outcome']);
      expect(s.mount).toEqual({ height: expect.any(Number), pitchDeg: 0, yawDeg: 0, x: 0, y: 0 });
      for (const k of ['cellsObserved', 'pathLength', 'collisions', 'falseObstacles', 'missedObstacles', 'replans']) expect(typeof s[k], k).toBe('number');
      expect(s.timeToGoal).toBeNull();
    }
    expect(r.stderr).toContain('study #');
    expect(existsSync(report)).toBe(true);
    const html = readFileSync(report, 'utf8');
    expect(html.match(/data:image\/png;base64,/g)?.length).toBe(4);
  }, 120_000);

  it('refuses a missing --profiles (usage: exit 2) and a malformed --mounts file (input: exit 1), naming the problem', () => {
    const noProfiles = runCli(['study', '--project', project, '--scene', String(scene), '--json'], env);
    expect(noProfiles.status).toBe(2);
    expect(noProfiles.stderr).toContain('--profiles');
    const bad = join(tmp.dir, 'bad.json');
    writeFileSync(bad, '[{"height": 2}, {"height": -1}]');
    const r = runCli(['study', '--project', project, '--scene', String(scene), '--profiles', 'vlp16', '--mounts', bad, '--json'], env);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('mount 1');
    expect(r.stderr).toContain('height');
  });
});
