/**
 * Sensor studies of the open project: the list, each study's definition and results (the list
 * shows sensors and metrics, which `studies.list` does not carry, so details are fetched per
 * study and kept until its state changes), the runs the study page draws (a small cache: a run's
 * history is MBs), and the actions — start, re-run, delete, report.
 *
 * Keeps itself in step with the host: a `studies` or `project` event, or a study job changing
 * state, reloads the list (live-sync.ts is the app-wide sync; this store subscribes on its own
 * so that file need not know about studies).
 */
import { defineStore } from 'pinia';
import { shallowRef } from 'vue';
import type { Request, StudyData, StudyInfo, StudyRunData } from '../../src-main/api/contract';
import { api } from '../api';
import { useAppStore } from './app';
import { useEntityList } from './entity-list';
import { startJob } from './start-job';

/** Run histories kept in memory (four panels and a few to switch back to). */
const RUN_CACHE = 8;

export const useStudiesStore = defineStore('studies', () => {
  /** studies.get by id, with the state it was fetched in. */
  const details = shallowRef(new Map<number, StudyData>());
  const runs = new Map<string, Promise<StudyRunData>>();
  const studies = useEntityList<StudyInfo>({
    list: () => api.call('studies.list', {}),
    listError: 'Cannot list studies',
    onRefreshed: async (list) => {
      const ids = new Set(list.map((s) => s.id));
      const kept = new Map([...details.value].filter(([id]) => ids.has(id)));
      if (kept.size !== details.value.size) details.value = kept;
      // Details of new studies, and of studies whose state moved (results arrive with 'done').
      const stale = list.filter((s) => details.value.get(s.id)?.state !== s.state || details.value.get(s.id)?.jobId !== s.jobId);
      for (const s of stale) dropRuns(s.id);
      await Promise.all(stale.map((s) => fetchDetail(s.id)));
    },
    onEmptied: () => {
      details.value = new Map();
      runs.clear();
    },
  });
  const { list, byId, refreshSoon } = studies;

  function dropRuns(id: number): void {
    for (const key of [...runs.keys()]) if (key.startsWith(`${id}:`)) runs.delete(key);
  }

  function setDetail(d: StudyData): void {
    const next = new Map(details.value);
    next.set(d.id, d);
    details.value = next;
  }

  async function fetchDetail(id: number): Promise<StudyData | null> {
    try {
      const d = await api.call('studies.get', { id });
      setDetail(d);
      return d;
    } catch (e) {
      // Gone (deleted, or the project closed): the page says so itself.
      const code = (e as { code?: string }).code;
      if (code !== 'not_found' && code !== 'no_project') useAppStore().reportError(`Cannot read study ${id}`, e);
      return null;
    }
  }

  /** Listen to host events (once) and load the list. */
  const start = (): void =>
    studies.follow((e) => {
      if (e.type === 'project') return e.entity === 'studies' || e.entity === 'project' || e.entity === 'scenes';
      if (e.type !== 'job' || e.job.kind !== 'study') return false;
      return !['queued', 'running'].includes(e.job.state) || list.value.some((s) => s.jobId === e.job.id && s.state !== e.job.state);
    });

  /** A study's definition and results (cached while its state holds). */
  async function get(id: number): Promise<StudyData | null> {
    const have = details.value.get(id);
    const info = byId.value.get(id);
    if (have && (!info || (info.state === have.state && info.jobId === have.jobId))) return have;
    return fetchDetail(id);
  }

  /** One run's history for a panel; the promise is shared and cached (the last RUN_CACHE runs). */
  function run(id: number, seq: number, cloudBudget: number): Promise<StudyRunData> {
    const key = `${id}:${seq}:${cloudBudget}`;
    let p = runs.get(key);
    if (p) {
      runs.delete(key);
      runs.set(key, p); // most recently used last
      return p;
    }
    p = api.call('studies.run', { id, seq, cloudBudget, events: true });
    runs.set(key, p);
    p.catch(() => runs.delete(key));
    while (runs.size > RUN_CACHE) runs.delete(runs.keys().next().value!);
    return p;
  }

  async function create(req: Request<'study.start'>): Promise<number | null> {
    let studyId: number | null = null;
    const job = await startJob(async () => {
      const r = await api.call('study.start', req);
      studyId = r.study.id;
      return r;
    }, 'Cannot start the study');
    if (job) refreshSoon();
    return job ? studyId : null;
  }

  /** Run a stored study again (its results are replaced when the job succeeds). */
  async function rerun(id: number): Promise<boolean> {
    const job = await startJob(() => api.call('study.start', { study: id }), `Cannot run study ${id}`);
    if (job) refreshSoon();
    return job !== null;
  }

  async function remove(id: number): Promise<boolean> {
    try {
      await api.call('studies.delete', { id });
      studies.forget([id]);
      const next = new Map(details.value);
      next.delete(id);
      details.value = next;
      dropRuns(id);
      useAppStore().clearError();
      return true;
    } catch (e) {
      useAppStore().reportError('Cannot delete the study', e);
      return false;
    }
  }

  /** The study's self-contained HTML report. */
  async function report(id: number): Promise<string | null> {
    try {
      return (await api.call('studies.report', { id })).html;
    } catch (e) {
      useAppStore().reportError('Cannot build the study report', e);
      return null;
    }
  }

  return { ...studies, details, start, get, run, create, rerun, remove, report };
});
