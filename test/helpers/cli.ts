import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './shared-data';

export const CLI = join(REPO_ROOT, 'bin/thicket.js');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
  json: unknown;
}

/** Run `thicket ARGS` with the test's Node (22) and parse stdout as JSON when it is one object. */
export function runCli(args: string[], env: Record<string, string> = {}): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000 });
  let json: unknown;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = null;
  }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, json };
}

export function spawnCli(args: string[], env: Record<string, string> = {}) {
  return spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}
