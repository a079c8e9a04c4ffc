// The window's and the session's lock-down against fakes of WebContents and Session: navigation
// and redirects stay on index.html, popups and webviews are refused, and every permission
// request or check but the clipboard write is denied.
import { describe, expect, it, vi } from 'vitest';
import { EventEmitter } from 'node:events';
import type { Session, WebContents } from 'electron';
import { hardenContents, lockDownSession } from '../../../src-main/electron/window';

const INDEX = '/app/out/renderer/index.html';

function fakeContents() {
  const contents = Object.assign(new EventEmitter(), { openHandler: null as null | (() => unknown), setWindowOpenHandler(h: () => unknown) { this.openHandler = h; } });
  hardenContents(contents as unknown as WebContents, INDEX);
  /** Fires `name` for `url`; true when a handler prevented it. */
  const fire = (name: string, url: string) => {
    const event = { preventDefault: vi.fn() };
    contents.emit(name, event, url);
    return event.preventDefault.mock.calls.length > 0;
  };
  return { contents, fire };
}

describe('hardenContents', () => {
  it('keeps navigation and redirects on index.html', () => {
    const { fire } = fakeContents();
    for (const name of ['will-navigate', 'will-redirect']) {
      expect(fire(name, `file://${INDEX}`), name).toBe(false);
      expect(fire(name, 'https://example.com/'), name).toBe(true);
      expect(fire(name, 'file:///etc/passwd'), name).toBe(true);
      expect(fire(name, 'not a url'), name).toBe(true);
    }
  });

  it('denies popups and webviews', () => {
    const { contents, fire } = fakeContents();
    expect(contents.openHandler?.()).toEqual({ action: 'deny' });
    expect(fire('will-attach-webview', '')).toBe(true);
  });
});

describe('lockDownSession', () => {
  it('denies every permission request and check but the clipboard write', () => {
    let request: ((c: unknown, p: string, cb: (ok: boolean) => void) => void) | null = null;
    let check: ((c: unknown, p: string) => boolean) | null = null;
    const ses = {
      webRequest: { onHeadersReceived: vi.fn() },
      setPermissionRequestHandler: (h: typeof request) => (request = h),
      setPermissionCheckHandler: (h: typeof check) => (check = h),
    };
    lockDownSession(ses as unknown as Session, "default-src 'self'");
    const asked = (p: string) => {
      let answer: boolean | null = null;
      request!(null, p, (ok) => (answer = ok));
      return answer;
    };
    for (const p of ['media', 'geolocation', 'notifications', 'openExternal', 'hid', 'unknown-future-permission']) {
      expect(asked(p), p).toBe(false);
      expect(check!(null, p), p).toBe(false);
    }
    expect(asked('clipboard-sanitized-write')).toBe(true);
    expect(check!(null, 'clipboard-sanitized-write')).toBe(true);
  });
});
