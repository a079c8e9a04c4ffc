// The IPC binding and the preload against the `electron` mock (test/mocks/electron.ts):
// ipcRenderer.invoke is wired straight to the handlers registered on the mocked ipcMain, and
// webContents.send straight back to ipcRenderer, so a call crosses the whole bridge.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { contextBridge, dialog, ipcMain, ipcRenderer } from 'electron';
import type { BrowserWindow } from 'electron';
import { ApiError } from '../../../src-main/api/contract';
import type { ApiEvent } from '../../../src-main/api/contract';
import type { ApiHost } from '../../../src-main/services/api-host';
import { bindIpc, sanitizeDialogOptions } from '../../../src-main/electron/ipc-binding';
import type { InvokeResult } from '../../../src-main/electron/ipc-binding';
import { CHANNELS } from '../../../src-main/electron/channels';
import type { Bridge } from '../../../src-main/electron/preload';

type Handler = (event: unknown, ...args: unknown[]) => unknown;
const handlers = (ipcMain as unknown as { handlers: Map<string, Handler> }).handlers;

const listeners = new Set<(e: ApiEvent) => void>();
const host: ApiHost = {
  dispatch: vi.fn(async (method: string, params: unknown) => {
    if (method === 'echo') return params;
    if (method === 'missing') throw new ApiError('not_found', 'no such log');
    throw new Error('boom');
  }),
  onEvent(h) {
    listeners.add(h);
    return () => void listeners.delete(h);
  },
};

const mainFrame = { url: 'file:///app/index.html' };
const contents = { mainFrame, send: vi.fn((channel: string, ...args: unknown[]) => ipcRenderer.emit(channel, {}, ...args)) };
const win = { webContents: contents, isDestroyed: () => false } as unknown as BrowserWindow;
const ours = { sender: contents, senderFrame: mainFrame };
const invoke = (event: unknown, channel: string, ...args: unknown[]) => handlers.get(channel)!(event, ...args);

let unbind: () => void;
let bridge: Bridge;

beforeAll(async () => {
  unbind = bindIpc(ipcMain, host, () => win);
  ipcRenderer.invoke = (channel: string, ...args: unknown[]) => Promise.resolve(invoke(ours, channel, ...args));
  await import('../../../src-main/electron/preload');
  bridge = (contextBridge as unknown as { exposed: Record<string, Bridge> }).exposed.thicketBridge!;
});

afterEach(() => vi.clearAllMocks());

describe('bindIpc', () => {
  it('registers exactly the invoke and dialog channels', () => {
    expect([...handlers.keys()].sort()).toEqual([CHANNELS.invoke, CHANNELS.pickFile, CHANNELS.pickSaveFile].sort());
  });

  it('routes thicket:invoke to dispatch and wraps the result', async () => {
    const params = { positions: new Float32Array([1, 2, 3]) };
    expect(await invoke(ours, CHANNELS.invoke, 'echo', params)).toEqual({ ok: true, result: params });
    expect(host.dispatch).toHaveBeenCalledWith('echo', params);
  });

  it('maps ApiError to its code and other errors to internal', async () => {
    expect(await invoke(ours, CHANNELS.invoke, 'missing', {})).toEqual({ ok: false, error: { code: 'not_found', message: 'no such log' } });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await invoke(ours, CHANNELS.invoke, 'other', {})).toEqual({ ok: false, error: { code: 'internal', message: 'boom' } });
  });

  it('rejects a non-string method without dispatching', async () => {
    const r = (await invoke(ours, CHANNELS.invoke, 42, {})) as InvokeResult;
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(host.dispatch).not.toHaveBeenCalled();
  });

  it('refuses senders other than our window’s top frame', async () => {
    const stranger = { sender: { mainFrame: {} }, senderFrame: null };
    const iframe = { sender: contents, senderFrame: { url: 'file:///other.html' } };
    for (const event of [stranger, iframe]) {
      expect(await invoke(event, CHANNELS.invoke, 'echo', 1)).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
      expect(await invoke(event, CHANNELS.pickFile, { title: 't', filters: [] })).toBeNull();
    }
    expect(host.dispatch).not.toHaveBeenCalled();
  });

  it('opens native dialogs with sanitized options', async () => {
    const d = dialog as unknown as Record<string, unknown>;
    d.showOpenDialog = vi.fn(async () => ({ canceled: false, filePaths: ['/data/drive.bin'] }));
    d.showSaveDialog = vi.fn(async () => ({ canceled: true, filePath: '' }));
    const opts = { title: 'Import', filters: [{ name: 'KITTI', extensions: ['bin', '../x', 7] }, { name: 'bad', extensions: [] }], evil: true };
    expect(await invoke(ours, CHANNELS.pickFile, opts)).toBe('/data/drive.bin');
    expect(d.showOpenDialog).toHaveBeenCalledWith(win, { title: 'Import', filters: [{ name: 'KITTI', extensions: ['bin'] }], properties: ['openFile'] });
    expect(await invoke(ours, CHANNELS.pickSaveFile, { title: 'Save', filters: [], defaultPath: 'a.thicket' })).toBeNull();
    expect(sanitizeDialogOptions(null)).toEqual({ title: 'Thicket', filters: [] });
  });
});

describe('preload bridge', () => {
  it('exposes exactly thicketBridge {shell, invoke, onEvent, pickFile, pickSaveFile}', () => {
    const exposed = (contextBridge as unknown as { exposed: Record<string, unknown> }).exposed;
    expect(Object.keys(exposed)).toEqual(['thicketBridge']);
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'onEvent', 'pickFile', 'pickSaveFile', 'shell']);
    expect(bridge.shell).toBe('electron');
  });

  it('invoke returns the envelope from the main side', async () => {
    expect(await bridge.invoke('echo', { a: 1 })).toEqual({ ok: true, result: { a: 1 } });
    expect(await bridge.invoke('missing', {})).toEqual({ ok: false, error: { code: 'not_found', message: 'no such log' } });
  });

  it('onEvent delivers host events until unsubscribed', () => {
    const got: ApiEvent[] = [];
    const off = bridge.onEvent((e) => got.push(e));
    const event: ApiEvent = { type: 'project', entity: 'project' };
    for (const h of listeners) h(event);
    off();
    for (const h of listeners) h(event);
    expect(got).toEqual([event]);
    expect(contents.send).toHaveBeenCalledWith(CHANNELS.event, event);
  });

  it('unbinding removes every handler', () => {
    unbind();
    expect(handlers.size).toBe(0);
    expect(listeners.size).toBe(0);
  });
});
