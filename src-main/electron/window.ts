/**
 * The one application window, locked down: isolated sandboxed renderer, no Node, only our
 * own index.html (no navigation away, no popups, no webviews, no permission prompts), and
 * the renderer's CSP as a response header as well as its meta tag.
 */
import { BrowserWindow } from 'electron';
import type { Session, WebContents } from 'electron';
import { pathToFileURL } from 'node:url';

export interface MainWindowOptions {
  preload: string;
  indexHtml: string;
}

/** Keep `contents` on `indexHtml`: deny popups, webviews and every navigation elsewhere. */
export function hardenContents(contents: WebContents, indexHtml: string): void {
  const allowed = pathToFileURL(indexHtml).pathname;
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event, url) => {
    const u = URL.canParse(url) ? new URL(url) : null;
    if (!u || u.protocol !== 'file:' || u.pathname !== allowed) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** CSP header on every response, and no permission (camera, geolocation, …) is ever granted. */
export function lockDownSession(ses: Session, csp: string): void {
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } });
  });
  ses.setPermissionRequestHandler((_contents, permission, callback) => callback(permission === 'clipboard-sanitized-write'));
}

export function createMainWindow(opts: MainWindowOptions): BrowserWindow {
  const win = new BrowserWindow({
    width: 1440,
    height: 900,
    minWidth: 960,
    minHeight: 600,
    title: 'Thicket',
    show: false, // shown on ready-to-show, so there is no white flash while Vue mounts
    webPreferences: {
      preload: opts.preload,
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
      webSecurity: true,
      webviewTag: false,
      spellcheck: false,
    },
  });
  hardenContents(win.webContents, opts.indexHtml);
  win.once('ready-to-show', () => win.show());
  void win.loadFile(opts.indexHtml);
  return win;
}
