/**
 * Keeps the stores in step with the host: host events update them, a (re)connection reloads
 * everything (events sent while we were disconnected are lost), and a project change reloads
 * the project-scoped lists. Called once from main.ts after Pinia is installed.
 */
import { watch } from 'vue';
import type { ApiEvent } from '../../src-main/api/contract';
import { api } from '../api';
import { useAppStore } from './app';
import { useJobsStore } from './jobs';
import { useLogsStore } from './logs';
import { useProjectStore } from './project';
import { useScenesStore } from './scenes';
import { useRunsStore } from './runs';
import { debounced } from './debounced';

export function startLiveSync(): void {
  const app = useAppStore();
  const project = useProjectStore();
  const logs = useLogsStore();
  const jobs = useJobsStore();
  const scenes = useScenesStore();
  const runs = useRunsStore();

  const refreshProject = debounced(() => void project.refresh());
  const refreshLogs = debounced(() => void logs.refresh());
  const refreshJobs = debounced(() => void jobs.refresh());
  const refreshScenes = debounced(() => void scenes.refresh());
  const refreshRuns = debounced(() => void runs.refresh());

  api.onEvent((event: ApiEvent) => {
    if (event.type === 'job') {
      const before = jobs.byId.get(event.job.id);
      jobs.upsert(event.job);
      // A finished import adds a log; refresh even if the host's driveLogs event is missed.
      if (event.job.state === 'done' && before?.state !== 'done' && /import/i.test(event.job.kind)) refreshLogs();
      // Likewise a generated scene and a finished simulation run.
      if (event.job.state === 'done' && before?.state !== 'done' && event.job.kind === 'generate-scene') refreshScenes();
      // The demo's drives job stores two logs and the site's scene.
      if (event.job.state === 'done' && before?.state !== 'done' && event.job.kind === 'demo-drives') {
        refreshLogs();
        refreshScenes();
      }
      if (event.job.state === 'done' && before?.state !== 'done' && event.job.kind === 'simulate') refreshRuns();
      return;
    }
    if (event.type !== 'project') return; // demo events: the demo card follows them
    if (event.entity === 'project') refreshProject();
    else {
      refreshProject(); // entity counts in the header card
      if (event.entity === 'driveLogs') refreshLogs();
      if (event.entity === 'jobs') refreshJobs();
      if (event.entity === 'scenes') refreshScenes();
      if (event.entity === 'runs' || event.entity === 'scenes') refreshRuns(); // a deleted scene unlinks its runs
    }
  });

  const reloadAll = () => {
    void app.loadInfo();
    void project.refresh();
    void jobs.refresh();
    // Events sent while disconnected are lost; the path watch below covers a project change.
    if (project.current) {
      void scenes.refresh();
      void runs.refresh();
    }
  };

  watch(
    () => app.connectionState,
    (state, previous) => {
      if (state === 'open' && previous !== 'open') reloadAll();
    },
  );

  watch(
    () => project.current?.path ?? null,
    (path) => {
      if (path) void logs.refresh();
      else logs.clear();
      if (path) {
        void scenes.refresh();
        void runs.refresh();
      } else {
        scenes.clear();
        runs.clear();
      }
      void jobs.refresh();
    },
  );

  // IPC is open from the start; the WebSocket client reaches 'open' later and the watch fires.
  if (app.connectionState === 'open') reloadAll();
}
