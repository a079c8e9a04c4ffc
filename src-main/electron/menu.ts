/**
 * The application menu. New/Open project call the services directly (after a native dialog);
 * the services announce the change with a `project` event, which reaches the renderer like
 * any other, so the menu needs no channel of its own.
 */
import { app, dialog, Menu } from 'electron';
import type { BrowserWindow, MenuItemConstructorOptions } from 'electron';
import { join } from 'node:path';
import type { AppInfo } from '../api/contract';
import type { ApiHost } from '../services/api-host';
import { toErrorData } from '../host/errors';

const PROJECT_FILTER = [{ name: 'Thicket project', extensions: ['thicket'] }];

export interface MenuDeps {
  host: ApiHost;
  getWindow: () => BrowserWindow | null;
}

async function run(deps: MenuDeps, what: string, action: (win: BrowserWindow) => Promise<void>): Promise<void> {
  const win = deps.getWindow();
  if (!win) return;
  try {
    await action(win);
  } catch (e) {
    await dialog.showMessageBox(win, { type: 'error', title: 'Thicket', message: `Could not ${what}`, detail: toErrorData(e).message });
  }
}

const newProject = (deps: MenuDeps) =>
  run(deps, 'create the project', async (win) => {
    const info = (await deps.host.dispatch('app.info', {})) as AppInfo;
    const r = await dialog.showSaveDialog(win, { title: 'New project', defaultPath: join(info.defaultProjectDir, 'Untitled.thicket'), filters: PROJECT_FILTER });
    if (r.canceled || !r.filePath) return;
    const path = r.filePath.endsWith('.thicket') ? r.filePath : `${r.filePath}.thicket`;
    await deps.host.dispatch('project.create', { path });
  });

const openProject = (deps: MenuDeps) =>
  run(deps, 'open the project', async (win) => {
    const r = await dialog.showOpenDialog(win, { title: 'Open project', filters: PROJECT_FILTER, properties: ['openFile'] });
    const path = r.canceled ? undefined : r.filePaths[0];
    if (path) await deps.host.dispatch('project.open', { path });
  });

const about = (deps: MenuDeps) =>
  run(deps, 'show the version', async (win) => {
    const v = process.versions;
    await dialog.showMessageBox(win, {
      type: 'info',
      title: 'About Thicket',
      message: `Thicket ${app.getVersion()}`,
      detail: `Sensor-realistic off-road lidar simulation.\n\nElectron ${v.electron}\nChromium ${v.chrome}\nNode ${v.node}`,
    });
  });

export function installMenu(deps: MenuDeps): void {
  const mac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(mac ? [{ role: 'appMenu' } as const] : []),
    {
      label: '&File',
      submenu: [
        { label: 'New Project…', accelerator: 'CmdOrCtrl+N', click: () => void newProject(deps) },
        { label: 'Open Project…', accelerator: 'CmdOrCtrl+O', click: () => void openProject(deps) },
        { type: 'separator' },
        mac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: '&View',
      submenu: [
        { role: 'reload' },
        { role: 'forceReload' },
        { role: 'toggleDevTools' },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { label: '&Help', submenu: [{ label: 'About Thicket', click: () => void about(deps) }] },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
