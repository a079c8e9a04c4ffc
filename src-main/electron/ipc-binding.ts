/**
 * The Electron IPC binding of the ThicketApi. Requests and typed arrays cross by structured
 * clone, so unlike the WebSocket binding there is no framing. Handlers never throw: Electron
 * flattens a thrown error into "Error invoking remote method …" text, losing `code`, so every
 * outcome is an envelope the renderer's IpcClient unwraps.
 */
import { dialog } from 'electron';
import type { BrowserWindow, IpcMain, IpcMainInvokeEvent } from 'electron';
import type { ApiErrorData } from '../api/contract';
import type { ApiHost } from '../services/api-host';
import { toErrorData } from '../host/errors';
import { CHANNELS } from './channels';
import type { FileFilter, PickSaveFileOptions } from './channels';

export type InvokeResult = { ok: true; result: unknown } | { ok: false; error: ApiErrorData };

/** Only our window's top frame may call: no other webContents, no (future) iframe. */
function fromOurWindow(event: IpcMainInvokeEvent, win: BrowserWindow | null): boolean {
  if (!win || win.isDestroyed() || event.sender !== win.webContents) return false;
  return !event.senderFrame || event.senderFrame === event.sender.mainFrame;
}

const str = (v: unknown, max: number): string | undefined => (typeof v === 'string' && v.length <= max ? v : undefined);

/** Dialog options come from the renderer: keep only well-formed title, filters, defaultPath. */
export function sanitizeDialogOptions(raw: unknown): PickSaveFileOptions {
  const o = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const filters: FileFilter[] = [];
  if (Array.isArray(o.filters)) {
    for (const f of o.filters.slice(0, 20) as Array<Record<string, unknown> | null>) {
      const name = str(f?.name, 100);
      const exts = Array.isArray(f?.extensions) ? f.extensions.filter((e): e is string => typeof e === 'string' && /^(\*|[\w-]{1,16})$/.test(e)) : [];
      if (name && exts.length) filters.push({ name, extensions: exts.slice(0, 20) });
    }
  }
  const defaultPath = str(o.defaultPath, 4096);
  return { title: str(o.title, 200) ?? 'Thicket', filters, ...(defaultPath ? { defaultPath } : {}) };
}

type IpcMainLike = Pick<IpcMain, 'handle' | 'removeHandler'>;

/** Registers the handlers and the event push; returns the function that undoes both. */
export function bindIpc(ipcMain: IpcMainLike, host: ApiHost, getWindow: () => BrowserWindow | null): () => void {
  const denied: InvokeResult = { ok: false, error: { code: 'unauthorized', message: 'IPC from an unknown sender' } };

  ipcMain.handle(CHANNELS.invoke, async (event, method: unknown, params: unknown): Promise<InvokeResult> => {
    if (!fromOurWindow(event, getWindow())) return denied;
    if (typeof method !== 'string') return { ok: false, error: { code: 'invalid_request', message: 'the method name must be a string' } };
    try {
      return { ok: true, result: await host.dispatch(method, params) };
    } catch (e) {
      const error = toErrorData(e);
      if (error.code === 'internal') console.error(`thicket: ${method} failed:`, e);
      return { ok: false, error };
    }
  });

  ipcMain.handle(CHANNELS.pickFile, async (event, raw: unknown): Promise<string | null> => {
    const win = getWindow();
    if (!win || !fromOurWindow(event, win)) return null;
    const { title, filters } = sanitizeDialogOptions(raw);
    const r = await dialog.showOpenDialog(win, { title, filters, properties: ['openFile'] });
    return r.canceled ? null : (r.filePaths[0] ?? null);
  });

  ipcMain.handle(CHANNELS.pickSaveFile, async (event, raw: unknown): Promise<string | null> => {
    const win = getWindow();
    if (!win || !fromOurWindow(event, win)) return null;
    const r = await dialog.showSaveDialog(win, sanitizeDialogOptions(raw));
    return r.canceled || !r.filePath ? null : r.filePath;
  });

  const unsubscribe = host.onEvent((ev) => {
    const win = getWindow();
    if (win && !win.isDestroyed()) win.webContents.send(CHANNELS.event, ev);
  });

  return () => {
    unsubscribe();
    for (const channel of [CHANNELS.invoke, CHANNELS.pickFile, CHANNELS.pickSaveFile]) ipcMain.removeHandler(channel);
  };
}
