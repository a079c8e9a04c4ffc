/**
 * The CLI's exit status contract (README.md, "The CLI"): 2 for a usage error — a flag the command
 * does not take, an unknown --param — and 1 when the input is bad (a missing or malformed file),
 * with a message that names the flag or the file and never echoes a file's text. Export refuses
 * to overwrite without --force. The CLI runs from any folder, not only the repository's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FLAG_NAMES } from '../../../src-main/cli/args';
import { COMMAND_FLAGS } from '../../../src-main/cli/command-flags';
import { CLI, cliTempHome, runCli } from '../../helpers/cli';
import { syntheticKitti } from '../../helpers/temp';

const tmp = cliTempHome();
const project = join(tmp.dir, 'c.thicket');
const cli = (args: string[]) => runCli([...args, '--project', project, '--quiet'], tmp.env);
let log = 0;

beforeAll(() => {
  const scan = join(tmp.dir, 'scan.bin');
  writeFileSync(scan, syntheticKitti(300));
  expect(runCli(['project', 'create', '--project', project], tmp.env).status).toBe(0);
  const r = cli(['import', scan, '--json']);
  expect(r.status, r.stderr).toBe(0);
  log = (r.json as { log: number }).log;
}, 60_000);

describe('usage errors exit 2 naming the flag', () => {
  it('every flag the parser knows belongs to some command', () => {
    const taken = new Set(['json', 'quiet', 'workers', 'help', 'version', ...Object.values(COMMAND_FLAGS).flat()]);
    expect(FLAG_NAMES.filter((f) => !taken.has(f))).toEqual([]);
  });

  it('a flag of another command (project info --mode quantum), or of none', () => {
    const r = cli(['project', 'info', '--mode', 'quantum']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^thicket: project: unknown option --mode \(project takes --project\)/);
    const none = cli(['project', 'info', '--quantum']);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain("'--quantum'");
  });

  it('an unknown --param of scene generate, fit and evaluate', () => {
    const scene = cli(['scene', 'generate', '--kind', 'rod-bench', '--param', 'bogus=1']);
    expect(scene.status).toBe(2);
    expect(scene.stderr).toContain('--param: scene rod-bench: unknown parameter "bogus" (known: backgroundOffset)');
    const fit = cli(['fit', '--log', String(log), '--param', 'bogus=1']);
    expect(fit.status).toBe(2);
    expect(fit.stderr).toContain('--param: fit parameter "bogus" is not known');
    const evaluate = cli(['evaluate', '--real', String(log), '--sim', '1', '--param', 'bogus=1']);
    expect(evaluate.status).toBe(2);
    expect(evaluate.stderr).toContain('--param: evaluation parameter "bogus" is not known');
  }, 60_000);
});

describe('bad input exits 1 naming the file and the reason', () => {
  it('a missing --mounts file, and one that is not JSON without echoing it', () => {
    const missing = cli(['study', '--scene', '1', '--profiles', 'vlp16', '--mounts', join(tmp.dir, 'nope.json')]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('nope.json: no such file');
    const secret = join(tmp.dir, 'passwd');
    writeFileSync(secret, 'root:x:0:0:root:/root:/bin/bash\n');
    const notJson = cli(['study', '--scene', '1', '--profiles', 'vlp16', '--mounts', secret]);
    expect(notJson.status).toBe(1);
    expect(notJson.stderr).toContain(`--mounts ${secret}: invalid JSON at line 1, column 1`);
    expect(notJson.stderr).not.toMatch(/root:|bash/);
  });

  it('an all-NaN KITTI scan is refused, not stored as an empty log', () => {
    const nan = join(tmp.dir, 'nan.bin');
    writeFileSync(nan, new Uint8Array(new Float32Array(400).fill(NaN).buffer));
    const r = cli(['import', nan]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('nan.bin: all 100 point(s) have NaN or infinite coordinates: nothing to import');
  });

  it('export refuses to overwrite a file without --force', () => {
    const victim = join(tmp.dir, 'victim.txt');
    writeFileSync(victim, 'keep me');
    const r = cli(['export', '--log', String(log), '--format', 'ply', '--out', victim]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('a file of that name exists; export again with force (thicket export --force)');
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    const forced = cli(['export', '--log', String(log), '--format', 'ply', '--out', victim, '--force']);
    expect(forced.status, forced.stderr).toBe(0);
    expect(readFileSync(victim, 'latin1').startsWith('ply\n')).toBe(true);
  }, 60_000);
});

describe('the working folder', () => {
  it('does not matter: run from elsewhere, the workers still start (source or built)', () => {
    const r = spawnSync(process.execPath, [CLI, 'validate', 'grass', '--samples', '50', '--json'], { cwd: tmp.dir, encoding: 'utf8', env: { ...process.env, ...tmp.env }, timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { cases: unknown[] }).cases.length).toBeGreaterThan(0);
  }, 120_000);
});
