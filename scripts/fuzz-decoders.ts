/**
 * Fuzzes every decoder the format registry lists (src-worker/formats/registry.ts: each log
 * format's targets and the poses files'): N seeded mutations (bit flips, byte overwrites, truncation, insertion,
 * deletion, header-line edits) of a valid sample per target. Each input must decode or throw
 * DecodeError; any other exception is a crash, and a target that stops reporting progress for
 * HANG_MS is a hang. Each target runs in its own worker thread so a hang can be stopped.
 *
 * Each run draws a fresh seed and prints it first; every target's sequence comes from it and the
 * target's name, so more runs explore new inputs, and `--seed N` replays a run exactly (a crash
 * line says which seed, target and input).
 *
 *   npm run fuzz                    # 10,000 mutations per target, a new seed
 *   npm run fuzz -- --seed 123456 --only pcap     # replay a run's pcap targets
 *   npm run fuzz -- --runs 500 --only pcap,ply
 *   npm run fuzz -- --runs 1000000  # nightly size (docs/drive-logs.md, "Fuzzing")
 *
 * Prints one line per target and a summary (--json: as JSON too); exits 1 on any crash or hang,
 * 2 on a bad option.
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { fuzzTargets } from '../src-worker/formats/registry';
import { runSeedFrom, runTargetSeed } from '../test/unit/formats/fuzz-run';

const HANG_MS = 20_000;

interface Report { target: string; seed: number; runs: number; ok: number; rejected: number; crash: string | null; hang: boolean; maxMs: number; seconds: number }

if (isMainThread) {
  let runs: number, runSeed: number, only: string[] | undefined, json: boolean;
  try {
    const { values } = parseArgs({ options: { runs: { type: 'string', default: '10000' }, only: { type: 'string' }, json: { type: 'boolean', default: false }, seed: { type: 'string' } } });
    runs = Number(values.runs);
    if (!Number.isSafeInteger(runs) || runs < 1) throw new Error(`--runs: expected a whole number ≥ 1, got "${values.runs}"`);
    runSeed = runSeedFrom(values.seed);
    only = values.only?.split(',');
    json = values.json;
  } catch (e) {
    process.stderr.write(`fuzz: ${(e as Error).message}\n`);
    process.exit(2);
  }
  const names = fuzzTargets().map((t) => t.name).filter((n) => !only || only.some((o) => n.startsWith(o)));
  process.stdout.write(`fuzz: seed ${runSeed} (replay: npm run fuzz -- --seed ${runSeed}${runs !== 10_000 ? ` --runs ${runs}` : ''}${only ? ` --only ${only.join(',')}` : ''})\n`);
  const reports: Report[] = [];
  for (const target of names) reports.push(await runTarget(target, runs, runSeed));
  const failed = reports.filter((r) => r.crash || r.hang);
  if (json) process.stdout.write(`${JSON.stringify({ seed: runSeed, runs, targets: reports }, null, 1)}\n`);
  process.stdout.write(`${reports.length} targets × ${runs} mutations, seed ${runSeed}: ${failed.length ? `${failed.length} FAILED` : 'no crash, no hang'}\n`);
  process.exit(failed.length ? 1 : 0);
} else {
  const { target, runs, seed, runSeed } = workerData as { target: string; runs: number; seed: number; runSeed: number };
  const { mutate, seededRandom } = await import('../test/unit/formats/mutate');
  const { DecodeError } = await import('../src-worker/formats/decode-error');
  const t = fuzzTargets().find((x) => x.name === target)!;
  const sample = t.sample();
  const rnd = seededRandom(seed);
  let ok = 0, rejected = 0, maxMs = 0;
  const t0 = performance.now();
  for (let k = 0; k < runs; k++) {
    const { bytes, kind } = mutate(sample, rnd);
    const s = performance.now();
    try {
      t.decode(bytes);
      ok++;
    } catch (e) {
      if (e instanceof DecodeError) rejected++;
      else {
        parentPort!.postMessage({ done: true, ok, rejected, maxMs, crash: `input ${k} (run seed ${runSeed}, target seed ${seed}, ${kind}; replay: npm run fuzz -- --seed ${runSeed} --only "${target}"): ${String((e as Error).stack ?? e)}` });
        process.exit(0);
      }
    }
    maxMs = Math.max(maxMs, performance.now() - s);
    if (k % 100 === 0) parentPort!.postMessage({ k });
  }
  parentPort!.postMessage({ done: true, ok, rejected, maxMs, crash: null, seconds: (performance.now() - t0) / 1000 });
}

function runTarget(target: string, runs: number, runSeed: number): Promise<Report> {
  return new Promise((resolve) => {
    const seed = runTargetSeed(runSeed, target);
    const w = new Worker(fileURLToPath(import.meta.url), { workerData: { target, runs, seed, runSeed }, execArgv: ['--import', 'tsx'] });
    const started = performance.now();
    let last = Date.now();
    let lastK = 0;
    const watchdog = setInterval(() => {
      if (Date.now() - last < HANG_MS) return;
      clearInterval(watchdog);
      void w.terminate();
      const r: Report = { target, seed, runs, ok: 0, rejected: 0, crash: null, hang: true, maxMs: HANG_MS, seconds: (performance.now() - started) / 1000 };
      process.stdout.write(`${target.padEnd(36)} HANG after input ${lastK} (replay: npm run fuzz -- --seed ${runSeed} --only "${target}")\n`);
      resolve(r);
    }, 1000);
    w.on('message', (m: { k?: number; done?: boolean; ok: number; rejected: number; maxMs: number; crash: string | null }) => {
      last = Date.now();
      if (m.k !== undefined) lastK = m.k;
      if (!m.done) return;
      clearInterval(watchdog);
      void w.terminate();
      const r: Report = { target, seed, runs, ok: m.ok, rejected: m.rejected, crash: m.crash, hang: false, maxMs: Math.round(m.maxMs), seconds: Math.round((performance.now() - started) / 100) / 10 };
      process.stdout.write(`${target.padEnd(36)} ${m.crash ? `CRASH ${m.crash}` : `ok ${m.ok}, rejected ${m.rejected}, slowest ${r.maxMs} ms, ${r.seconds} s`}\n`);
      resolve(r);
    });
    w.on('error', (e) => {
      clearInterval(watchdog);
      resolve({ target, seed, runs, ok: 0, rejected: 0, crash: String(e.stack ?? e), hang: false, maxMs: 0, seconds: 0 });
    });
  });
}
