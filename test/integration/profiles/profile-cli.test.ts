/** `thicket profile import|list|show` as a user runs it (bin/thicket.js in a child process). */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliTempHome, runCli, runCliOk } from '../../helpers/cli';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';

const tmp = cliTempHome('thicket-profile-cli-');
const { env } = tmp;

interface FileForm {
  format: string;
  id: string;
  name: string;
  units: Record<string, string>;
  groups: { firingPeriod: number; lasers: { elevation: number; timeOffset: number }[] }[];
  description: string;
}

describe('thicket profile', () => {
  it.skipIf(!HAS_SHARED_DATA)('import FILE --json prints the profile in the file form without saving', () => {
    const r = runCliOk(['profile', 'import', dataFile('velodyne_calib/VLP16db.yaml'), '--json'], env);
    const p = r.json as FileForm;
    expect(p.format).toBe('thicket-sensor-profile');
    expect(p.units).toEqual({ angle: 'deg', time: 'ms', rate: 'Hz', length: 'm', divergence: 'mrad' });
    expect(p.id).toBe('vlp16db');
    expect(p.groups[0]!.lasers).toHaveLength(16);
    expect(p.groups[0]!.lasers[0]!.elevation).toBe(-15);
    expect(p.groups[0]!.lasers[1]!.elevation).toBe(1);
    expect(p.groups[0]!.firingPeriod).toBe(0.055296);
    expect(p.groups[0]!.lasers[1]!.timeOffset).toBe(0.002304);
    expect(r.stderr).toContain('not saved');
    // What it prints is itself a profile file: it imports back.
    const file = join(tmp.dir, 'vlp16-mine.json');
    writeFileSync(file, r.stdout);
    const again = runCliOk(['profile', 'import', file, '--id', 'vlp16-mine', '--json'], env);
    expect({ ...(again.json as FileForm), id: 'vlp16db' }).toEqual(p);
  });

  it.skipIf(!HAS_SHARED_DATA)('import --project saves it; list and show find it', () => {
    const project = join(tmp.dir, 'p.thicket');
    expect(runCli(['project', 'create', '--project', project, '--json'], env).status).toBe(0);
    const r = runCliOk(['profile', 'import', dataFile('velodyne_calib/32db.xml'), '--project', project, '--id', 'my-hdl32', '--json'], env);
    expect((r.json as FileForm).id).toBe('my-hdl32');
    expect((r.json as FileForm).groups[0]!.lasers[0]!.elevation).toBeCloseTo(-30.67, 9);
    expect(r.stderr).toContain('saved profile "my-hdl32"');
    const list = runCliOk(['profile', 'list', '--project', project, '--json'], env);
    const profiles = (list.json as { profiles: { id: string; builtin: boolean; lasers: number }[] }).profiles;
    expect(profiles.filter((p) => p.builtin)).toHaveLength(37);
    expect(profiles.find((p) => p.id === 'my-hdl32')).toMatchObject({ builtin: false, lasers: 32 });
    const show = runCliOk(['profile', 'show', 'my-hdl32', '--project', project, '--json'], env);
    expect((show.json as FileForm).description).toContain('Velodyne HDL-32E (detected from 32 lasers from −30.67° to +10.67°)');
    const text = runCli(['profile', 'list', '--project', project], env);
    expect(text.stdout).toMatch(/custom\s+my-hdl32/);
  });

  it('show prints a built-in; errors are clear, with non-zero exits', () => {
    const show = runCliOk(['profile', 'show', 'hdl64e', '--json'], env);
    const p = show.json as FileForm;
    expect(p.groups.map((g) => g.firingPeriod)).toEqual([0.032, 0.096]);

    const bad = join(tmp.dir, 'bad.yaml');
    writeFileSync(bad, 'lasers:\n- {laser_id: 0, vert_correction: [1, 2]}\n');
    const r = runCli(['profile', 'import', bad, '--json'], env);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('bad.yaml: lasers[0].vert_correction (line 2): expected a number in radians, got a list');
    expect(r.json).toEqual({ error: expect.stringContaining('bad.yaml') });

    expect(runCli(['profile', 'show', 'nope', '--json'], env).stderr).toContain('no built-in sensor profile "nope"');
    expect(runCli(['profile', 'frobnicate'], env).status).toBe(2);
    expect(runCli(['profile', 'import'], env).status).toBe(2);
  });
});
