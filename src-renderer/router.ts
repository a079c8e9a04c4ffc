/**
 * Hash history: the URL after '#' is ours alone, so routing works from file:// in Electron
 * and from the web host's single index.html without server-side fallbacks.
 */
import { createRouter, createWebHashHistory } from 'vue-router';
import type { RouteRecordRaw } from 'vue-router';
import ProjectsView from './views/ProjectsView.vue';
import DriveLogsView from './views/DriveLogsView.vue';
import PlannedView from './views/PlannedView.vue';

/** Pages that later issues build; each says in one sentence what it will hold. */
const planned: { path: string; title: string; holds: string }[] = [
  { path: '/primitives', title: 'Primitives', holds: 'Terrain primitives (trees, shrubs, grass patches, ground) extracted from labelled drive logs, with their class, extents and fitted elements.' },
  { path: '/studies', title: 'Studies', holds: 'Sensor and mount comparisons: costmaps and A* plans for each candidate, side by side.' },
  { path: '/evaluation', title: 'Evaluation', holds: 'Observation-level metrics of simulation runs against real drive logs.' },
];

const routes: RouteRecordRaw[] = [
  { path: '/', redirect: '/projects' },
  { path: '/projects', component: ProjectsView },
  { path: '/logs', component: DriveLogsView },
  { path: '/logs/:id(\\d+)', component: () => import('./views/LogView.vue'), props: (r) => ({ id: Number(r.params.id) }) },
  { path: '/sensors', component: () => import('./views/SensorsView.vue') },
  { path: '/scenes', component: () => import('./views/ScenesView.vue') },
  { path: '/runs/:id(\\d+)', component: () => import('./views/RunView.vue'), props: (r) => ({ id: Number(r.params.id) }) },
  ...planned.map((p) => ({ path: p.path, component: PlannedView, props: { title: p.title, holds: p.holds } })),
  { path: '/:pathMatch(.*)*', redirect: '/projects' },
];

export const router = createRouter({ history: createWebHashHistory(), routes });
