/**
 * The sandboxed preload (built to out/preload/index.cjs): exposes `window.thicketBridge`, the
 * renderer's only way into the main process (its type: src-renderer/api/bridge.d.ts). It
 * passes data through and nothing else: no Node, no ipcRenderer, no event objects leak out.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { IpcRendererEvent } from 'electron';
import type { ApiErrorData, ApiEvent } from '../api/contract';
import { CHANNELS } from './channels';
import type { PickFileOptions, PickSaveFileOptions } from './channels';

type InvokeResult = { ok: true; result: unknown } | { ok: false; error: ApiErrorData };

const bridge = {
  shell: 'electron' as const,
  invoke(method: string, params: unknown): Promise<InvokeResult> {
    return ipcRenderer.invoke(CHANNELS.invoke, method, params) as Promise<InvokeResult>;
  },
  onEvent(cb: (event: ApiEvent) => void): () => void {
    const listener = (_e: IpcRendererEvent, event: ApiEvent) => cb(event);
    ipcRenderer.on(CHANNELS.event, listener);
    return () => void ipcRenderer.removeListener(CHANNELS.event, listener);
  },
  pickFile(opts: PickFileOptions): Promise<string | null> {
    return ipcRenderer.invoke(CHANNELS.pickFile, opts) as Promise<string | null>;
  },
  pickSaveFile(opts: PickSaveFileOptions): Promise<string | null> {
    return ipcRenderer.invoke(CHANNELS.pickSaveFile, opts) as Promise<string | null>;
  },
};

export type Bridge = typeof bridge;

contextBridge.exposeInMainWorld('thicketBridge', bridge);
