/**
 * The one application window, locked down: isolated sandboxed renderer, no Node, only our
 * own index.html (no navigation or redirect away, no popups, no webviews, no permissions), and
 * the renderer's CSP as a response header as well as its meta tag.
 */
import { BrowserWindow } from 'electron';
import type { Session, WebContents } from 'electron';
import { pathToFileURL } from 'node:url';

export interface MainWindowOptions {
  preload: string;
  indexHtml: string;
}

/** Keep `contents` on `indexHtml`: deny popups, webviews and every navigation or redirect elsewhere. */
export function hardenContents(contents: WebContents, indexHtml: string): void {
  const allowed = pathToFileURL(indexHtml).pathname;
  const stayHome = (event: { preventDefault(): void }, url: string) => {
    const u = URL.canParse(url) ? new URL(url) : null;
    if (!u || u.protocol !== 'file:' || u.pathname !== allowed) event.preventDefault();
  };
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', stayHome);
  // A server redirect is a navigation too: the same rule, so a redirect never leaves the app.
  contents.on('will-redirect', stayHome);
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** The one permission the app uses (copying text); every other request and check is denied. */
const ALLOWED_PERMISSIONS: readonly string[] = ['clipboard-sanitized-write'];

/** CSP header on every response, and no permission (camera, geolocation, …) is ever granted. */
export function lockDownSession(ses: Session, csp: string): void {
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } });
  });
  ses.setPermissionRequestHandler((_contents, permission, callback) => callback(ALLOWED_PERMISSIONS.includes(permission)));
  ses.setPermissionCheckHandler((_contents, permission) => ALLOWED_PERMISSIONS.includes(permission));
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
