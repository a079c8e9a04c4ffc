/**
 * The CLI's scans and truncation options on the real Ouster lb_n3 capture: `import --poses`
 * with one KITTI row per scan, `import --scans A:B`, `log split --at K --json`, and a cut
 * capture's warning on stderr and in the JSON.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliTempHome, runCli } from '../../helpers/cli';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';

const tmp = cliTempHome();
const { env } = tmp;
const PCAP = dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10_lb_n3.pcap');
const META = dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10.json');
const POSES = dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10_lb_n3_poses_kitti.txt');

describe.skipIf(!HAS_SHARED_DATA)('thicket import --scans, log split, truncated captures', () => {
  const p = join(tmp.dir, 'scans.thicket');

  it('imports the lb_n3 capture with its per-scan poses, a range of scans, and splits it at scan 3', () => {
    expect(runCli(['project', 'create', '--project', p, '--json'], env).status).toBe(0);
    const all = runCli(['import', PCAP, '--calibration', META, '--poses', POSES, '--project', p, '--json'], env);
    expect(all.status).toBe(0);
    expect(all.json).toMatchObject({ packets: 192, scans: 3, scansInCapture: 3, warnings: [] });
    const part = runCli(['import', PCAP, '--calibration', META, '--poses', POSES, '--scans', '2:3', '--project', p, '--json'], env);
    expect(part.json).toMatchObject({ packets: 128, scans: 2, scansInCapture: 3 });
    expect(runCli(['import', PCAP, '--calibration', META, '--scans', '3:2', '--project', p, '--json'], env)).toMatchObject({ status: 2 });

    const log = (all.json as { log: number }).log;
    const split = runCli(['log', 'split', '--project', p, '--log', String(log), '--at', '3', '--json'], env);
    expect(split.status).toBe(0);
    const parts = (split.json as { logs: { log: number; name: string; scans: number; packets: number }[] }).logs;
    expect(parts.map((x) => [x.scans, x.packets])).toEqual([[2, 128], [1, 64]]);
    expect(parts[0]!.packets + parts[1]!.packets).toBe(192);
    const bad = runCli(['log', 'split', '--project', p, '--log', String(log), '--at', '4', '--json'], env);
    expect(bad.status).toBe(1);
    expect((bad.json as { error: string }).error).toContain('has 3 scan(s), numbered from 1: the split\'s first scan of the second log must be 2…3, got 4');
  });

  it('a capture cut mid-record imports its complete records and warns on stderr', () => {
    const bytes = readFileSync(PCAP);
    const cut = join(tmp.dir, 'cut.pcap');
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const r = runCli(['import', cut, '--calibration', META, '--project', p, '--json', '--quiet'], env);
    expect(r.status).toBe(0);
    const warnings = (r.json as { warnings: string[] }).warnings;
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^cut\.pcap: truncated at byte \d+: the last \d+ byte\(s\), an incomplete record, were dropped; the \d+ complete record\(s\) before it were kept$/);
    expect(r.stderr).toContain(`thicket: warning: ${warnings[0]}`);
    expect((r.json as { packets: number }).packets).toBeGreaterThan(80);
  });
});
