/** Left-navigation entries (order, labels, stable test ids). */
export interface NavEntry {
  path: string;
  label: string;
  testId: string;
  icon: string;
}

export const NAV: NavEntry[] = [
  { path: '/projects', label: 'Projects', testId: 'nav-projects', icon: 'folder' },
  { path: '/logs', label: 'Drive logs', testId: 'nav-logs', icon: 'logs' },
  { path: '/primitives', label: 'Primitives', testId: 'nav-primitives', icon: 'tree' },
  { path: '/sensors', label: 'Sensors', testId: 'nav-sensors', icon: 'sensor' },
  { path: '/scenes', label: 'Scenes', testId: 'nav-scenes', icon: 'scene' },
  { path: '/studies', label: 'Studies', testId: 'nav-studies', icon: 'study' },
  { path: '/evaluation', label: 'Evaluation', testId: 'nav-evaluation', icon: 'chart' },
];
