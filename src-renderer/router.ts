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
const planned: { path: string; title: string; holds: string }[] = [];

const routes: RouteRecordRaw[] = [
  { path: '/', redirect: '/projects' },
  { path: '/projects', component: ProjectsView },
  { path: '/logs', component: DriveLogsView },
  { path: '/logs/:id(\\d+)', component: () => import('./views/LogView.vue'), props: (r) => ({ id: Number(r.params.id) }) },
  { path: '/primitives', component: () => import('./views/PrimitivesView.vue') },
  { path: '/sensors', component: () => import('./views/SensorsView.vue') },
  { path: '/scenes', component: () => import('./views/ScenesView.vue') },
  { path: '/runs/:id(\\d+)', component: () => import('./views/RunView.vue'), props: (r) => ({ id: Number(r.params.id) }) },
  { path: '/evaluation', component: () => import('./views/EvaluationView.vue') },
  { path: '/studies', component: () => import('./views/StudiesView.vue') },
  { path: '/studies/:id(\\d+)', component: () => import('./views/StudyView.vue'), props: (r) => ({ id: Number(r.params.id) }) },
  ...planned.map((p) => ({ path: p.path, component: PlannedView, props: { title: p.title, holds: p.holds } })),
  { path: '/:pathMatch(.*)*', redirect: '/projects' },
];

export const router = createRouter({ history: createWebHashHistory(), routes });
