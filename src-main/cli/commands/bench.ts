import type { AppServices } from '../../services/app-services';
import { intFlag, numberFlag, type CommonArgs } from '../args';
import { CliError } from '../cli-error';
import type { CommandOutput } from '../output';
import type { ProgressReporter } from '../progress';
import { benchFoundation } from '../../services/bench-foundation';
import { benchRealtime } from '../../services/bench-realtime';
import { benchEngine } from '../../services/bench-engine';
import { benchImport } from '../../services/bench-import';
import { benchFit } from '../../services/bench-fit';
import { benchHost } from '../../services/bench-host';
import { benchLabelSelect } from '../../services/bench-label-select';
import { benchDrive } from '../../services/bench-drive';
import { runTransient } from '../../jobs/job-runner';

const PARTS = ['foundation', 'engine', 'realtime', 'import', 'fit', 'host', 'label-select', 'drive'] as const;
type Part = (typeof PARTS)[number];
/** Run without --only: every part but fit (it first simulates a 100,000-packet log), host (the whole demo) and drive (six drives): minutes each. */
const DEFAULT_PARTS: readonly Part[] = PARTS.filter((p) => p !== 'fit' && p !== 'host' && p !== 'drive');

export async function benchCommand(services: AppServices, args: CommonArgs, progress: ProgressReporter): Promise<CommandOutput> {
  const only = args.values.only?.split(',').map((s) => s.trim()) ?? [...DEFAULT_PARTS];
  for (const p of only) if (!(PARTS as readonly string[]).includes(p)) throw new CliError(`--only: unknown part "${p}" (known: ${PARTS.join(', ')})`, 2);
  const want = (p: Part) => only.includes(p);
  const note = (m: string) => progress.note(`bench: ${m}`);
  const json: Record<string, unknown> = {};
  const text: string[] = [];
  if (want('foundation')) {
    const f = await benchFoundation(services, note);
    json.foundation = f;
    text.push(
      `workers: ${f.workers}`,
      `pool:   ${f.pool.tasksPerSecond} tiny tasks/s (${f.pool.tasks} tasks)`,
      `store:  write ${f.store.writeMBps} MB/s, read ${f.store.readMBps} MB/s (${f.store.megabytes} MB of BLOB chunks)`,
      `import: ${f.import.pointsPerSecond} points/s, ${f.import.mbPerSecond} MB/s (${f.import.points} points in ${f.import.seconds} s)`,
      `display: ${f.display.points} points decimated to ${f.display.shown} in ${f.display.seconds} s`,
    );
  }
  const { triangles, rays } = args.values;
  if ((triangles === undefined) !== (rays === undefined)) throw new CliError('--triangles FILE and --rays FILE go together', 2);
  if (want('engine')) {
    const e = await benchEngine(
      {
        ...(triangles && rays ? { trianglesFile: triangles, raysFile: rays } : {}),
        workers: services.options.workers,
        runTask: async (input) => (await runTransient(services.pool, 'bench-engine', input)).result,
      },
      note,
    );
    json.engine = e.engine;
    json.threeMeshBvh = e.threeMeshBvh;
    json.engineDetails = e.details;
    text.push(
      `engine: ${Math.round(e.engine.raysPerSecond)} rays/s on one thread, ${Math.round(e.engine.raysPerSecondPool)} rays/s on ${services.options.workers} worker(s); BVH build ${Math.round(e.engine.buildMs)} ms, ${(e.engine.memoryBytes / 1048576).toFixed(1)} MB; ${e.engine.hits} hits`,
      `three-mesh-bvh: ${Math.round(e.threeMeshBvh.raysPerSecond)} rays/s on one thread; ${e.threeMeshBvh.hits} hits (×${(e.engine.raysPerSecond / e.threeMeshBvh.raysPerSecond).toFixed(1)} for Thicket)`,
    );
  }
  if (want('realtime')) {
    const seconds = numberFlag(args.values, 'seconds', 0.01, 60) ?? 1;
    const realtime = await benchRealtime(services.pool, { seconds, ...(args.values.profile ? { profiles: args.values.profile.split(',') } : {}) }, note);
    json.realtime = realtime;
    text.push('real-time factor (simulated s per wall s), composed 200 m strip, trail at 2.4 m/s:');
    for (const r of realtime) text.push(`  ${r.profile.padEnd(14)} ${r.mode.padEnd(8)} ${r.factor.toFixed(2)}× (${r.rays} rays in ${r.wallSeconds} s)`);
  }
  if (want('import')) {
    const megabytes = numberFlag(args.values, 'megabytes', 1, 65536) ?? 1024;
    const b = await benchImport(services, megabytes, note);
    json.import = b;
    text.push(
      `capture import: ${b.megabytes} MB HDL-32E pcap (${b.packets} packets, ${b.rays} rays) in ${b.seconds} s = ${b.mbPerSecond} MB/s;`,
      `  peak memory ${b.peakRssMB} MB (${b.peakRssMBBefore} MB before the import); project ${b.projectMB} MB`,
    );
  }
  if (want('fit')) {
    const packets = intFlag(args.values, 'packets', 64, 10_000_000) ?? 100_000;
    const f = await benchFit(services, { packets }, note);
    json.fit = f;
    text.push(
      `fit: ${f.packets} packets × ${f.raysPerPacket} rays (${f.rays} rays) in ${f.fitSeconds} s on ${f.workers} worker(s) = ${f.raysPerSecond} rays/s (log made in ${f.logSeconds} s)`,
      `  stages (ms): ${Object.entries(f.timings).map(([k, v]) => `${k} ${v}`).join(', ')}`,
      `  model: ${f.model.triangles} triangles, ${f.model.ellipsoids} ellipsoids, ${f.model.voxels} voxels; σ²_ground ${f.model.groundVariance.toFixed(4)} m²`,
    );
  }
  if (want('label-select')) {
    const points = intFlag(args.values, 'points', 1000, 50_000_000) ?? 2_000_000;
    const l = benchLabelSelect(points, note);
    json.labelSelect = l;
    text.push(`label selection over ${l.points} points, ${l.screen.join(' × ')} screen (median of 7; goal ≤ 100 ms):`);
    for (const r of l.results) text.push(`  ${r.shape.padEnd(34)} ${String(r.ms).padStart(7)} ms   ${r.selected} selected`);
  }
  if (want('drive')) {
    const seconds = numberFlag(args.values, 'seconds', 0.5, 600) ?? 10;
    const d = await benchDrive(services, { seconds, ...(args.values.profile ? { profiles: args.values.profile.split(',') } : {}) }, note);
    json.drive = d;
    text.push(`live drive pace on ${d.scene}, ${d.seconds} s from the default start toward the goal, one sensor at a time (simulated s per wall s; ≥ 1 keeps up with real time):`);
    for (const r of d.results) text.push(`  ${r.profile.padEnd(14)} ${r.mode.padEnd(8)} ${r.factor.toFixed(2)}× (${r.simulatedSeconds} s in ${r.wallSeconds} s; first frame after ${r.firstFrameSeconds} s)`);
  }
  if (want('host')) {
    const seconds = numberFlag(args.values, 'seconds', 0.05, 60);
    const seed = intFlag(args.values, 'seed');
    const h = await benchHost(
      services,
      { small: args.values.small ?? false, ...(args.values.project ? { project: args.values.project } : {}), ...(seconds !== undefined ? { seconds } : {}), ...(seed !== undefined ? { seed } : {}) },
      note,
    );
    json.host = h;
    const lines = [
      `host: longest event-loop stall ${h.maxStallMs} ms (p99 ${h.p99StallMs} ms; its own work at most ${h.maxBusyMs ?? '?'} ms) over the ${h.small ? 'small ' : ''}demo; preview of ${h.previewTriangles} triangles`,
      ...h.steps.map((s) => `  ${s.step.padEnd(9)} max ${String(s.maxStallMs).padStart(6)} ms  p99 ${String(s.p99StallMs).padStart(5)} ms  busy ${String(s.maxBusyMs ?? '?').padStart(6)} ms  (${s.seconds} s)`),
    ];
    // The summary goes to stderr too, so a --json run still shows it.
    if (args.json) for (const line of lines) progress.note(line);
    text.push(...lines);
  }
  return { json, text: text.join('\n') };
}
