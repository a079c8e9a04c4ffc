/**
 * The renderer's one API client. In Electron the preload exposes window.thicketBridge and we
 * use IPC; anywhere else (browser mode, e2e tests) we connect to the host's WebSocket.
 * Views and stores import `api` from here and never care which transport is underneath.
 */
import type { ThicketClient } from '../../src-main/api/contract';
import type { FileFilter } from './bridge';
import { IpcClient } from './ipc-client';
import { apiSocketUrl, takeAccessToken } from './token';
import { WsClient } from './ws-client';
import type { ConnectionState, SocketLike } from './ws-client';

export type { ConnectionState } from './ws-client';

const bridge = window.thicketBridge;

export const shell: 'electron' | 'web' = bridge ? 'electron' : 'web';

const wsClient = bridge
  ? null
  : new WsClient({
      url: apiSocketUrl(takeAccessToken()),
      // The DOM socket's handler types name DOM Event classes; SocketLike keeps only what we read.
      createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
    });

export const api: ThicketClient = bridge ? new IpcClient(bridge) : wsClient!;

/** Connection state for the header; IPC is always "open". */
export const connection = {
  get state(): ConnectionState {
    return wsClient ? wsClient.state : 'open';
  },
  get detail(): string {
    return wsClient ? wsClient.detail : '';
  },
  subscribe(handler: (state: ConnectionState, detail: string) => void): () => void {
    return wsClient ? wsClient.onState(handler) : () => {};
  },
};

/** True where the OS file dialogs exist (Electron); browser mode uses <input type=file>. */
export const hasNativeDialogs = Boolean(bridge);

/** Electron only: a path on the host chosen in the OS dialog, or null if cancelled. */
export function pickHostFile(title: string, filters: FileFilter[]): Promise<string | null> {
  if (!bridge) return Promise.reject(new Error('native file dialogs exist only in the desktop app'));
  return bridge.pickFile({ title, filters });
}

/** Electron only: a save path chosen in the OS dialog, or null if cancelled. */
export function pickHostSavePath(title: string, filters: FileFilter[], defaultPath?: string): Promise<string | null> {
  if (!bridge) return Promise.reject(new Error('native file dialogs exist only in the desktop app'));
  return bridge.pickSaveFile({ title, filters, ...(defaultPath ? { defaultPath } : {}) });
}

/** Browser mode: the bytes of a file from an <input type=file>, ready for logs.importBytes. */
export async function readPickedFile(file: File): Promise<{ name: string; bytes: Uint8Array<ArrayBuffer> }> {
  return { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
}
