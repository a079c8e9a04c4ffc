/**
 * Hash history: the URL after '#' is ours alone, so routing works from file:// in Electron
 * and from the web host's single index.html without server-side fallbacks.
 */
import { createRouter, createWebHashHistory } from 'vue-router';
import type { RouteRecordRaw } from 'vue-router';
import ProjectsView from './views/ProjectsView.vue';
import DriveLogsView from './views/DriveLogsView.vue';

const routes: RouteRecordRaw[] = [
  { path: '/', redirect: '/projects' },
  { path: '/projects', component: ProjectsView },
  { path: '/logs', component: DriveLogsView },
  { path: '/logs/:id(\\d+)', component: () => import('./views/LogView.vue'), props: (r) => ({ id: Number(r.params.id) }) },
  { path: '/logs/:id(\\d+)/label', component: () => import('./views/LabelView.vue'), props: (r) => ({ id: Number(r.params.id) }) },
  { path: '/primitives', component: () => import('./views/PrimitivesView.vue') },
  { path: '/sensors', component: () => import('./views/SensorsView.vue') },
  { path: '/scenes', component: () => import('./views/ScenesView.vue') },
  { path: '/scenes/new', component: () => import('./views/SceneEditorView.vue') },
  { path: '/scenes/:id(\\d+)/edit', component: () => import('./views/SceneEditorView.vue'), props: (r) => ({ id: Number(r.params.id) }) },
  { path: '/scenes/:id(\\d+)/drive', component: () => import('./views/LiveDriveView.vue'), props: (r) => ({ id: Number(r.params.id) }) },
  { path: '/runs/:id(\\d+)', component: () => import('./views/RunView.vue'), props: (r) => ({ id: Number(r.params.id) }) },
  { path: '/evaluation', component: () => import('./views/EvaluationView.vue') },
  { path: '/studies', component: () => import('./views/StudiesView.vue') },
  { path: '/studies/:id(\\d+)', component: () => import('./views/StudyView.vue'), props: (r) => ({ id: Number(r.params.id) }) },
  { path: '/:pathMatch(.*)*', redirect: '/projects' },
];

export const router = createRouter({ history: createWebHashHistory(), routes });
