/** Pure helpers of the jobs strip (JobsPanel.vue): which job it shows, the counts, the kinds' names. */
import type { JobInfo, JobState } from '../../src-main/api/contract';
import { plural } from '../format';

const KIND_LABELS: Record<string, string> = {
  import: 'Import',
  export: 'Export',
  split: 'Split log',
  simulate: 'Simulation',
  'generate-scene': 'Scene generation',
  'compose-scene': 'Scene composition',
  fit: 'Model fit',
  'fit-replay': 'Model fit (replay)',
  'fit-tune': 'Model tuning',
  'extract-primitives': 'Primitive extraction',
  evaluate: 'Evaluation',
  study: 'Sensor study',
  drive: 'Live drive',
  demo: 'Demo project',
  'label-propose': 'Label proposal',
};

/** "Sensor study" for 'study'; an unknown kind with its dashes as spaces. */
export function jobKindLabel(kind: string): string {
  return KIND_LABELS[kind] ?? kind.replace(/[-_]/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

/** The job the strip shows: the newest running one, else the newest queued, else the newest (`list` newest first). */
export function stripJob(list: readonly JobInfo[]): JobInfo | null {
  return list.find((j) => j.state === 'running') ?? list.find((j) => j.state === 'queued') ?? list[0] ?? null;
}

/** "2 running · 1 queued · 1 failed", "idle", or "no jobs yet". */
export function jobsSummary(list: readonly JobInfo[]): string {
  const count = (s: JobState) => list.filter((j) => j.state === s).length;
  const parts: string[] = [];
  for (const s of ['running', 'queued', 'failed'] as const) if (count(s)) parts.push(`${count(s)} ${s}`);
  if (parts.length) return parts.join(' · ');
  return list.length ? `idle · ${plural(list.length, 'job')}` : 'no jobs yet';
}
