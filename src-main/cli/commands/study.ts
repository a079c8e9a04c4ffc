/**
 * `thicket study --project P --scene S --profiles lms291,vlp16,hdl32e,hdl64e [--mounts FILE]
 *  [--seconds T] [--loop closed|open] [--mode physics|hybrid] [--seed N] [--start x,y] [--goal x,y]
 *  [--workers N] [--report FILE] [--json]`
 *
 * Runs every profile with every mount (a sensor × mount sweep) and prints
 * {study, sensors: [{profile, mount, cellsObserved, pathLength, timeToGoal, collisions,
 * falseObstacles, missedObstacles, replans, outcome}]}. Ctrl-C cancels the job (the stored
 * definition stays, without results).
 *
 * --mounts FILE is JSON: a list of mounts, e.g. [{"height": 2}, {"height": 1.5, "pitchDeg": 5}]
 * (fields height m, pitchDeg, yawDeg, x, y m; absent ones default to 2 m, 0°, 0°, 0, 0), or a sweep
 * whose fields are lists, crossed: {"height": [1, 2, 3], "pitchDeg": [-10, 0, 10]}.
 */
import { writeFileSync } from 'node:fs';
import { StudyMount, type StudySensorResult } from '../../api/contract';
import { STUDY_LOOPS, STUDY_SIMULATIONS } from '../../../src-common/modes';
import type { AppServices } from '../../services/app-services';
import { formatZodError } from '../../services/validation';
import { MOUNTS_FILE, readSideFile } from '../../services/side-file';
import { parseJsonText } from '../../../src-common/sensor-profile-schema';
import { intFlag, numberFlag, requireProject, type CommonArgs } from '../args';
import { CliError } from '../cli-error';
import type { CommandOutput } from '../output';
import type { ProgressReporter } from '../progress';
import { waitForJob } from '../wait-job';

/** Short names of the built-in profiles (003's four sensors). */
export const PROFILE_ALIASES: Readonly<Record<string, string>> = { lms291: 'lms291-180-1', lms: 'lms291-180-1', vlp16: 'vlp16', hdl32e: 'hdl32e', hdl64e: 'hdl64e' };

const MOUNT_KEYS = ['height', 'pitchDeg', 'yawDeg', 'x', 'y'] as const;

/** The mounts of a --mounts file: a list, or a sweep of lists crossed in key order. */
export function parseMounts(text: string, file: string): StudyMount[] {
  let raw: unknown;
  try {
    // Says where and why, never the text: the file may be anything readable.
    raw = parseJsonText(text, `--mounts ${file}`);
  } catch (e) {
    throw new CliError(`${(e as Error).message} (expected a JSON list of mounts or an object of lists)`, 1);
  }
  let list: unknown[];
  if (Array.isArray(raw)) list = raw;
  else if (raw && typeof raw === 'object') {
    const sweep = raw as Record<string, unknown>;
    for (const k of Object.keys(sweep)) if (!(MOUNT_KEYS as readonly string[]).includes(k)) throw new CliError(`--mounts ${file}: unknown field "${k}" (fields: ${MOUNT_KEYS.join(', ')})`, 1);
    list = [{}];
    for (const k of MOUNT_KEYS) {
      if (sweep[k] === undefined) continue;
      const values = Array.isArray(sweep[k]) ? (sweep[k] as unknown[]) : [sweep[k]];
      if (values.length === 0) throw new CliError(`--mounts ${file}: "${k}" is an empty list`, 1);
      list = list.flatMap((m) => values.map((v) => ({ ...(m as object), [k]: v })));
    }
  } else throw new CliError(`--mounts ${file}: expected a list of mounts or an object of lists`, 1);
  if (list.length === 0) throw new CliError(`--mounts ${file}: no mounts`, 1);
  return list.map((m, i) => {
    const parsed = StudyMount.safeParse(m);
    if (!parsed.success) throw new CliError(`--mounts ${file}: mount ${i}: ${formatZodError(parsed.error)}`, 1);
    return parsed.data;
  });
}

function xyFlag(raw: string | undefined, name: string): [number, number] | undefined {
  if (raw === undefined) return undefined;
  const parts = raw.split(',').map((p) => Number(p.trim()));
  if (parts.length !== 2 || parts.some((p) => !Number.isFinite(p))) throw new CliError(`--${name}: expected x,y in metres, got "${raw}"`, 2);
  return parts as [number, number];
}

export async function studyCommand(services: AppServices, args: CommonArgs, progress: ProgressReporter): Promise<CommandOutput> {
  const v = args.values;
  const sceneId = intFlag(v, 'scene', 1);
  if (sceneId === undefined) throw new CliError('--scene S is required (a scene id: `thicket scene list`)', 2);
  if (!v.profiles) throw new CliError('--profiles a,b,… is required (e.g. lms291,vlp16,hdl32e,hdl64e, or profile ids: `thicket profile list`)', 2);
  const profiles = v.profiles.split(',').map((p) => p.trim()).filter(Boolean).map((p) => PROFILE_ALIASES[p] ?? p);
  if (profiles.length === 0) throw new CliError('--profiles: no profile given', 2);
  const loop = v.loop ?? 'closed';
  if (!(STUDY_LOOPS as readonly string[]).includes(loop)) throw new CliError(`--loop: expected closed or open, got "${loop}"`, 2);
  const mode = v.mode ?? 'physics';
  if (!(STUDY_SIMULATIONS as readonly string[]).includes(mode)) throw new CliError(`--mode: a study simulates in physics or hybrid mode, got "${mode}"`, 2);
  let mounts: StudyMount[] = [StudyMount.parse({})];
  if (v.mounts) {
    let text: string;
    try {
      // Bounded, and only a regular file (docs/drive-logs.md, "Side files").
      text = readSideFile(v.mounts, MOUNTS_FILE).text;
    } catch (e) {
      // A file that cannot be read is the input's fault, not the command line's: exit 1.
      throw new CliError(`--mounts ${(e as Error).message}`, 1);
    }
    mounts = parseMounts(text, v.mounts);
  }
  const seconds = numberFlag(v, 'seconds', 1e-3, 3600);
  const start = xyFlag(v.start, 'start'), goal = xyFlag(v.goal, 'goal');
  await services.call('project.open', { path: requireProject(args) });
  const { job, study } = await services.call('study.start', {
    definition: {
      sceneId,
      ...(args.name ? { name: args.name } : {}),
      loop: loop as (typeof STUDY_LOOPS)[number],
      simulation: mode as (typeof STUDY_SIMULATIONS)[number],
      ...(seconds !== undefined ? { seconds } : {}),
      seed: intFlag(v, 'seed') ?? 1,
      vehicle: { ...(start ? { start } : {}), ...(goal ? { goal } : {}) },
      sensors: profiles.flatMap((profileId) => mounts.map((mount) => ({ profileId, mount }))),
    },
  });
  progress.note(`study ${study.id}: ${study.runs} run${study.runs === 1 ? '' : 's'} (${profiles.join(', ')} × ${mounts.length} mount${mounts.length === 1 ? '' : 's'}), ${loop} loop, ${mode} mode`);
  const onSigint = () => {
    progress.note('interrupted: cancelling the study…');
    void services.call('jobs.cancel', { id: job.id });
  };
  process.once('SIGINT', onSigint);
  let result: Record<string, unknown>;
  try {
    result = await waitForJob(services, job.id, progress);
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
  const sensors = (result.sensors as StudySensorResult[]).map((r) => ({
    profile: r.profile,
    mount: r.mount,
    cellsObserved: r.cellsObserved,
    pathLength: r.pathLength,
    timeToGoal: r.timeToGoal,
    collisions: r.collisions,
    falseObstacles: r.falseObstacles,
    missedObstacles: r.missedObstacles,
    replans: r.replans,
    outcome: r.outcome,
  }));
  if (v.report) {
    const { html } = await services.call('studies.report', { id: study.id });
    try {
      writeFileSync(v.report, html);
    } catch (e) {
      throw new CliError(`--report ${v.report}: ${(e as Error).message}`);
    }
    progress.note(`report: ${v.report}`);
  }
  const fmt = (x: number | null) => (x === null ? '—' : x.toFixed(1));
  const lines = sensors.map(
    (s) => `${s.profile.padEnd(14)} h ${s.mount.height} m pitch ${s.mount.pitchDeg}°: ${s.outcome}${s.timeToGoal !== null ? ` in ${fmt(s.timeToGoal)} s` : ''}, path ${fmt(s.pathLength)} m, ${s.cellsObserved} cells, ${s.falseObstacles} false / ${s.missedObstacles} missed obstacles, ${s.collisions} collisions, ${s.replans} replans`,
  );
  return { json: { study: study.id, sensors }, text: [`study ${study.id}`, ...lines].join('\n') };
}
