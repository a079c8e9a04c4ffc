// Stand-in for the `electron` module under vitest: the binary is not installable offline,
// and nothing outside src-main/electron/ may import it (lint rule). Tests of the IPC binding
// drive these fakes directly.
import { EventEmitter } from 'node:events';

type Handler = (event: unknown, ...args: unknown[]) => unknown;
export const ipcMain = Object.assign(new EventEmitter(), {
  handlers: new Map<string, Handler>(),
  handle(channel: string, fn: Handler) {
    this.handlers.set(channel, fn);
  },
  removeHandler(channel: string) {
    this.handlers.delete(channel);
  },
});
export const app = { getVersion: () => '0.0.0-test', getPath: () => '/tmp', whenReady: () => Promise.resolve(), on: () => app, quit: () => {} };
export const contextBridge = { exposed: {} as Record<string, unknown>, exposeInMainWorld(key: string, api: unknown) { this.exposed[key] = api; } };
export const ipcRenderer = new EventEmitter();
export class BrowserWindow {}
export const dialog = {};
export const Menu = { setApplicationMenu: () => {}, buildFromTemplate: () => ({}) };
export const session = { defaultSession: { webRequest: { onHeadersReceived: () => {} } } };
export default { ipcMain, app, contextBridge, ipcRenderer, BrowserWindow, dialog, Menu, session };
