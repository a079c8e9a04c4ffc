import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { createAppServices, type AppServices } from '../../src-main/services/app-services';
import { REPO_ROOT } from './shared-data';
import { tempDir } from './temp';

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

/** `runCli` that asserts the command exits 0 (its stderr as the failure message). */
export function runCliOk(args: string[], env: Record<string, string> = {}): CliResult {
  const r = runCli(args, env);
  expect(r.status, r.stderr).toBe(0);
  return r;
}

/**
 * A temporary folder for a CLI test file, removed after the file's tests, and the environment
 * that gives the commands their own THICKET_HOME (its `home/`).
 */
export function cliTempHome(prefix?: string): { dir: string; env: { THICKET_HOME: string } } {
  const tmp = tempDir(prefix);
  afterAll(() => tmp.cleanup());
  return { dir: tmp.dir, env: { THICKET_HOME: join(tmp.dir, 'home') } };
}

/** The services a CLI command runs on (shell 'cli'), over `homeDir`, with `project` open: to check what the commands stored. */
export async function openCliServices(homeDir: string, project: string, workers = 1): Promise<AppServices> {
  const services = await createAppServices({ shell: 'cli', homeDir, workers });
  try {
    await services.call('project.open', { path: project });
  } catch (e) {
    await services.close();
    throw e;
  }
  return services;
}

export function spawnCli(args: string[], env: Record<string, string> = {}) {
  return spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}
