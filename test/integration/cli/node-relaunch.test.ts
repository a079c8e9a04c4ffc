import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, cliTempHome, runCliOk } from '../../helpers/cli';
import { syntheticKitti } from '../../helpers/temp';

/** A `node` older than 22 on PATH (bin/thicket.js re-launches itself under the pinned Node 22 from it), or null. */
function olderNode(): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const node = join(dir, 'node');
    if (!existsSync(node)) continue;
    const v = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout ?? '';
    const major = Number(/^v(\d+)\./.exec(v)?.[1]);
    if (major > 0 && major < 22) return node;
  }
  return null;
}

/** Pids of the processes whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        // stat: "pid (comm) state ppid …"; comm may hold spaces, so read after the last ')'.
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gave up waiting: ${what}`);
}

const old = olderNode();
const tmp = cliTempHome();

// docs/design.md, "Robustness": the re-launched child lives and dies with the `thicket` process.
describe.skipIf(!old || process.platform !== 'linux')('bin/thicket.js re-launched under Node 22 from an older Node', () => {
  const big = join(tmp.dir, 'big.bin');

  it.each(['SIGTERM', 'SIGKILL'] as const)('ends its child when it is killed with %s in the middle of an import', async (signal) => {
    if (!existsSync(big)) writeFileSync(big, syntheticKitti(8_000_000)); // 128 MB: an import that runs for a while
    const project = join(tmp.dir, `${signal}.thicket`);
    runCliOk(['project', 'create', '--project', project], tmp.env);
    const wrapper = spawn(old!, [CLI, 'import', big, '--project', project], { env: { ...process.env, ...tmp.env }, stdio: ['ignore', 'ignore', 'pipe'] });
    const exited = new Promise<NodeJS.Signals | null>((r) => wrapper.on('exit', (_code, s) => r(s)));
    let stderr = '';
    wrapper.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    await until(() => stderr.includes('import'), 'the import to start');
    const [child] = childrenOf(wrapper.pid!);
    expect(child).toBeDefined();
    wrapper.kill(signal);
    expect(await exited).toBe(signal);
    await until(() => !alive(child!), `the child ${child} to end after its wrapper got ${signal}`);
    // It ended with its wrapper, not at the end of the import: the log never became ready.
    const info = runCliOk(['project', 'info', '--project', project, '--json'], tmp.env).json as { counts: { driveLogs: number } };
    expect(info.counts.driveLogs).toBe(0);
  });
});
