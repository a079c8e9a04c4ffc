/**
 * The Electron preload's bridge (src-main/electron/preload.ts exposes it with contextBridge).
 * Declared here so the renderer type-checks against it without importing Electron code.
 * Absent in browser mode, where the renderer talks WebSocket instead.
 */
import type { ApiEvent, ApiErrorData } from '../../src-main/api/contract';

export interface FileFilter {
  name: string;
  extensions: string[];
}

export type BridgeResult = { ok: true; result: unknown } | { ok: false; error: ApiErrorData };

export interface ThicketBridge {
  shell: 'electron';
  invoke(method: string, params: unknown): Promise<BridgeResult>;
  onEvent(cb: (event: ApiEvent) => void): () => void;
  pickFile(opts: { title: string; filters: FileFilter[] }): Promise<string | null>;
  pickSaveFile(opts: { title: string; defaultPath?: string; filters: FileFilter[] }): Promise<string | null>;
}

declare global {
  interface Window {
    thicketBridge?: ThicketBridge;
    /** Test hook set by the point-cloud viewport (see viewport/PointCloudViewport.vue). */
    __thicketViewport?: { pointCount: number; ready: boolean; highlightCount: number; missCount: number };
  }
}
