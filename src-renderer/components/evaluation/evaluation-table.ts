/**
 * Every evaluation of the project as one table (the Evaluation page's *All evaluations…*): what
 * was simulated (the scene, the fitted model or the neighbour log) and by which simulator, against
 * which log, and the headline figures with one unit per column; grouped by scene and simulator;
 * and the same as CSV. Pure, unit-tested.
 */
import type { EvaluationInfo, RunInfo, SceneInfo } from '../../../src-main/api/contract';

export interface EvaluationRow {
  id: number;
  /** What was simulated: a scene's name, "model #N" or "replay of log N". */
  scene: string;
  /** physics / mesh / hybrid / voxel, or neighbour for a replay. */
  simulator: string;
  run: string;
  log: string;
  packets: number;
  precision: number | null;
  recall: number | null;
  f1: number | null;
  /** Metres. */
  pointCloudError: number | null;
  packetError: number | null;
  /** Real and simulated rays paired (0–1), where the evaluation says. */
  pairedReal: number | null;
  warnings: string[];
}

export function evaluationRows(evaluations: readonly EvaluationInfo[], runs: readonly RunInfo[], scenes: readonly Pick<SceneInfo, 'id' | 'name'>[]): EvaluationRow[] {
  const runById = new Map(runs.map((r) => [r.id, r]));
  const sceneName = new Map(scenes.map((s) => [s.id, s.name]));
  const rows = evaluations.map((e): EvaluationRow => {
    const run = runById.get(e.runId);
    const p = run?.params ?? {};
    const neighbour = typeof p.neighbourLogId === 'number' ? p.neighbourLogId : null;
    const model = typeof p.modelId === 'number' ? p.modelId : null;
    const scene = neighbour !== null ? `replay of log ${neighbour}`
      : model !== null ? `model #${model}`
      : run?.sceneId != null ? sceneName.get(run.sceneId) ?? `scene ${run.sceneId}`
      : '—';
    const m = e.metrics;
    return {
      id: e.id, scene, simulator: neighbour !== null ? 'neighbour' : run?.mode ?? '—',
      run: e.runName ?? `run ${e.runId}`, log: e.realLogName ?? `log ${e.realLogId}`,
      packets: m.packets, precision: m.precision, recall: m.recall, f1: m.f1, pointCloudError: m.pointCloudError, packetError: m.packetError,
      pairedReal: m.pairedFraction?.real ?? null, warnings: m.warnings ?? [],
    };
  });
  return rows.sort((a, b) => a.scene.localeCompare(b.scene) || a.simulator.localeCompare(b.simulator) || a.id - b.id);
}

const COLUMNS: [keyof EvaluationRow, string][] = [
  ['id', 'evaluation'], ['scene', 'scene'], ['simulator', 'simulator'], ['run', 'run'], ['log', 'drive log'], ['packets', 'packets'],
  ['precision', 'precision'], ['recall', 'recall'], ['f1', 'F1'], ['pointCloudError', 'point-cloud error (m)'], ['packetError', 'packet error (m)'],
  ['pairedReal', 'real rays paired (fraction)'], ['warnings', 'warnings'],
];

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. */
function field(v: unknown): string {
  const s = v === null || v === undefined ? '' : Array.isArray(v) ? v.join('; ') : typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toPrecision(6)) : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function evaluationsCsv(rows: readonly EvaluationRow[]): string {
  return [COLUMNS.map(([, h]) => field(h)).join(','), ...rows.map((r) => COLUMNS.map(([k]) => field(r[k])).join(','))].join('\r\n') + '\r\n';
}
