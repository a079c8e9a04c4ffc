/**
 * IPC channel names shared by the main-side binding and the preload. A file of its own so the
 * sandboxed preload bundle pulls in nothing else (no zod, no host code).
 */
export const CHANNELS = {
  /** renderer → main: (method, params) → {ok, result} | {ok: false, error} */
  invoke: 'thicket:invoke',
  /** main → renderer: one ApiEvent per message */
  event: 'thicket:event',
  /** renderer → main: open-file dialog → path | null */
  pickFile: 'thicket:pick-file',
  /** renderer → main: save-file dialog → path | null */
  pickSaveFile: 'thicket:pick-save-file',
} as const;

export interface FileFilter {
  name: string;
  extensions: string[];
}
export interface PickFileOptions {
  title: string;
  filters: FileFilter[];
}
export interface PickSaveFileOptions extends PickFileOptions {
  defaultPath?: string;
}
