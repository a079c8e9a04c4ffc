/**
 * Electron main process (built to out/main/index.js; `npm start`). Thin: the same services as
 * browser mode, bound to IPC instead of a WebSocket, behind one hardened window.
 * Optional argument: `--project FILE.thicket` opens that project at start.
 */
import { app, BrowserWindow, dialog, ipcMain, session } from 'electron';
import { fileURLToPath } from 'node:url';
import { createAppServices } from '../services/app-services';
import type { AppServices } from '../services/app-services';
import { rendererCsp } from '../host/csp';
import { toErrorData } from '../host/errors';
import { bindIpc } from './ipc-binding';
import { installMenu } from './menu';
import { createMainWindow, lockDownSession } from './window';

const here = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));
const PRELOAD = here('../preload/index.cjs');
const RENDERER_DIR = here('../renderer/');
const INDEX_HTML = here('../renderer/index.html');

function projectArg(argv: string[]): string | null {
  const i = argv.indexOf('--project');
  if (i >= 0) return argv[i + 1] ?? null;
  return argv.find((a) => a.startsWith('--project='))?.slice('--project='.length) ?? null;
}

app.enableSandbox();

if (!app.requestSingleInstanceLock()) {
  // Another Thicket already runs; it gets focus through 'second-instance'. Two main
  // processes writing the same project file would fight over its WAL.
  app.quit();
} else {
  let services: AppServices | null = null;
  let win: BrowserWindow | null = null;
  let unbind = () => {};
  let closed = false;

  const openWindow = () => {
    win = createMainWindow({ preload: PRELOAD, indexHtml: INDEX_HTML });
    win.on('closed', () => (win = null));
  };

  app.on('second-instance', () => {
    if (win?.isMinimized()) win.restore();
    win?.focus();
  });

  app
    .whenReady()
    .then(async () => {
      lockDownSession(session.defaultSession, rendererCsp(RENDERER_DIR));
      services = await createAppServices({ shell: 'electron', homeDir: process.env.THICKET_HOME || undefined });
      unbind = bindIpc(ipcMain, services, () => win);
      installMenu({ host: services, getWindow: () => win });
      openWindow();
      app.on('activate', () => win ?? openWindow());
      const project = projectArg(process.argv);
      if (project) {
        await services.dispatch('project.open', { path: project }).catch((e: unknown) => {
          dialog.showErrorBox('Thicket', `Could not open ${project}: ${toErrorData(e).message}`);
        });
      }
    })
    .catch((e: unknown) => {
      dialog.showErrorBox('Thicket could not start', toErrorData(e).message);
      app.exit(1);
    });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  // Close the services (jobs, the project's SQLite file) before the process goes away.
  app.on('will-quit', (event) => {
    if (closed || !services) return;
    event.preventDefault();
    unbind();
    services
      .close()
      .catch((e: unknown) => console.error('thicket: closing services failed:', e))
      .finally(() => {
        closed = true;
        app.quit();
      });
  });
}
