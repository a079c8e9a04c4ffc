// Browser-mode host end to end over real sockets: a fake ApiHost behind startWebHost, driven
// by `ws` clients and raw HTTP requests (raw, so `/../` reaches the server un-normalized).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { ApiError } from '../../../src-main/api/contract';
import type { ApiEvent } from '../../../src-main/api/contract';
import { decodeFrame, encodeFrame } from '../../../src-main/api/wire';
import type { WireMessage, WireResponse } from '../../../src-main/api/wire';
import type { ApiHost } from '../../../src-main/services/api-host';
import { startWebHost } from '../../../src-main/host/web-host';
import type { WebHost } from '../../../src-main/host/web-host';

class FakeHost implements ApiHost {
  private handlers = new Set<(e: ApiEvent) => void>();
  async dispatch(method: string, params: unknown): Promise<unknown> {
    if (method === 'echo') return params;
    if (method === 'missing') throw new ApiError('not_found', 'drive log 7 does not exist');
    if (method === 'crash') throw new Error('disk on fire');
    throw new ApiError('unknown_method', `unknown method ${method}`);
  }
  onEvent(handler: (e: ApiEvent) => void) {
    this.handlers.add(handler);
    return () => void this.handlers.delete(handler);
  }
  emit(e: ApiEvent) {
    for (const h of this.handlers) h(e);
  }
}

interface Client {
  ws: WebSocket;
  messages: WireMessage[];
  call(method: string, params: unknown): Promise<WireResponse>;
  next(kind: WireMessage['kind']): Promise<WireMessage>;
}

let tmp: string;
let web: WebHost;
const fake = new FakeHost();
const CSP = "default-src 'self'; connect-src 'self' ws://127.0.0.1:*";

function connect(query: string): Promise<Client> {
  const ws = new WebSocket(`ws://127.0.0.1:${web.port}/api${query}`);
  const messages: WireMessage[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (data: Buffer) => {
    messages.push(decodeFrame(data) as WireMessage);
    waiters.splice(0).forEach((w) => w());
  });
  let nextId = 1;
  const next = async (kind: WireMessage['kind'], pred: (m: WireMessage) => boolean = () => true) => {
    for (;;) {
      const i = messages.findIndex((m) => m.kind === kind && pred(m));
      if (i >= 0) return messages.splice(i, 1)[0]!;
      await new Promise<void>((r) => waiters.push(r));
    }
  };
  const client: Client = {
    ws,
    messages,
    next,
    async call(method, params) {
      const id = nextId++;
      ws.send(encodeFrame({ kind: 'request', id, method, params }));
      return (await next('response', (m) => m.kind === 'response' && m.id === id)) as WireResponse;
    },
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(client));
    ws.once('error', reject);
  });
}

/** Close code (or HTTP status, as a negative number) of a connection attempt. */
function refusal(query: string, path = '/api'): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${web.port}${path}${query}`);
    ws.on('unexpected-response', (_req, res) => resolve(-(res.statusCode ?? 0)));
    ws.on('close', (code) => resolve(code));
    ws.on('error', () => {});
  });
}

function rawGet(path: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: web.port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'thicket-web-'));
  const renderer = join(tmp, 'renderer');
  mkdirSync(join(renderer, 'assets'), { recursive: true });
  writeFileSync(join(renderer, 'index.html'), `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="${CSP}"></head><body>thicket-shell</body></html>`);
  writeFileSync(join(renderer, 'assets', 'app-1234.js'), 'console.log("app");');
  writeFileSync(join(tmp, 'package.json'), '{"secret": "outside-the-root"}');
  web = await startWebHost({ host: fake, rendererDir: renderer });
});

afterAll(async () => {
  await web?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('web host: WebSocket API', () => {
  it('prints a loopback URL carrying a 64-hex-digit token', () => {
    expect(web.url).toBe(`http://127.0.0.1:${web.port}/?token=${web.token}`);
    expect(web.token).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers a call from a client with the right token', async () => {
    const c = await connect(`?token=${web.token}`);
    const r = await c.call('echo', { hello: 'world', n: 3 });
    expect(r).toEqual({ kind: 'response', id: 1, ok: true, result: { hello: 'world', n: 3 } });
    c.ws.close();
  });

  it('round-trips typed arrays byte-exact in both directions', async () => {
    const c = await connect(`?token=${web.token}`);
    const floats = new Float32Array(1_000_000);
    for (let i = 0; i < floats.length; i++) floats[i] = Math.sin(i) * 1e3 + i * 1e-3;
    floats[5] = NaN;
    floats[6] = -0;
    const bytes = new Uint8Array(1001).map((_, i) => (i * 37) & 0xff);
    const r = await c.call('echo', { positions: floats, classId: bytes, name: 'cloud' });
    expect(r.ok).toBe(true);
    const out = r.result as { positions: Float32Array; classId: Uint8Array; name: string };
    expect(out.positions).toBeInstanceOf(Float32Array);
    expect(out.classId).toBeInstanceOf(Uint8Array);
    expect(out.name).toBe('cloud');
    expect(Buffer.from(out.positions.buffer).equals(Buffer.from(floats.buffer))).toBe(true);
    expect(Buffer.from(out.classId).equals(Buffer.from(bytes))).toBe(true);
    c.ws.close();
  });

  it.each([
    ['a wrong token', '?token=deadbeef'],
    ['a missing token', ''],
    ['an empty token', '?token='],
  ])('refuses %s with close code 4401', async (_what, query) => {
    expect(await refusal(query)).toBe(4401);
  });

  it('refuses upgrades on any path but /api', async () => {
    expect(await refusal(`?token=${web.token}`, '/other')).toBe(-404);
  });

  it('refuses a page from a foreign origin even with the token', async () => {
    const code = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${web.port}/api?token=${web.token}`, { origin: 'http://evil.example' });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(200));
      ws.on('error', () => {});
    });
    expect(code).toBe(403);
  });

  it('forwards ApiError code and message, and maps other errors to internal', async () => {
    const c = await connect(`?token=${web.token}`);
    expect(await c.call('missing', {})).toMatchObject({ ok: false, error: { code: 'not_found', message: 'drive log 7 does not exist' } });
    const crashed = await c.call('crash', {});
    expect(crashed).toMatchObject({ ok: false, error: { code: 'internal', message: 'disk on fire' } });
    c.ws.close();
  });

  it('answers malformed frames with invalid_request and keeps the connection', async () => {
    const c = await connect(`?token=${web.token}`);
    c.ws.send('{"kind":"request"}'); // text frame
    expect(await c.next('response')).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    c.ws.send(new Uint8Array([0xff, 0xff, 0xff, 0x7f, 1, 2])); // header longer than the frame
    expect(await c.next('response')).toMatchObject({ id: 0, ok: false, error: { code: 'invalid_request' } });
    c.ws.send(encodeFrame({ kind: 'request', id: 42, params: {} })); // no method
    expect(await c.next('response')).toMatchObject({ id: 42, ok: false, error: { code: 'invalid_request' } });
    expect((await c.call('echo', 'still alive')).result).toBe('still alive');
    c.ws.close();
  });

  it('broadcasts host events to every connected client', async () => {
    const a = await connect(`?token=${web.token}`);
    const b = await connect(`?token=${web.token}`);
    const event: ApiEvent = { type: 'project', entity: 'driveLogs', id: 3 };
    fake.emit(event);
    expect(await a.next('event')).toEqual({ kind: 'event', event });
    expect(await b.next('event')).toEqual({ kind: 'event', event });
    a.ws.close();
    b.ws.close();
  });
});

describe('web host: shutdown', () => {
  it('close() ends live connections with 1001 and stops listening', async () => {
    const other = await startWebHost({ host: new FakeHost(), rendererDir: join(tmp, 'renderer'), token: 'fixed-token' });
    expect(other.url).toBe(`http://127.0.0.1:${other.port}/?token=fixed-token`);
    const ws = new WebSocket(`ws://127.0.0.1:${other.port}/api?token=fixed-token`);
    await new Promise((r) => ws.once('open', r));
    const closed = new Promise<number>((r) => ws.once('close', r));
    await other.close();
    expect(await closed).toBe(1001);
    const err = await new Promise<Error>((r) => new WebSocket(`ws://127.0.0.1:${other.port}/api`).once('error', r));
    expect(err.message).toMatch(/ECONNREFUSED/);
  });
});

describe('web host: static renderer', () => {
  it('serves index.html for / with the page CSP and nosniff', async () => {
    const r = await rawGet('/');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers['content-security-policy']).toBe(CSP);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['referrer-policy']).toBe('no-referrer');
    expect(r.body).toContain('thicket-shell');
  });

  it('serves a JS asset as text/javascript', async () => {
    const r = await rawGet('/assets/app-1234.js');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(r.body).toBe('console.log("app");');
  });

  it('404s a missing asset but serves the app shell for client-side routes', async () => {
    expect((await rawGet('/assets/nope.js')).status).toBe(404);
    const route = await rawGet('/logs/3');
    expect(route.status).toBe(200);
    expect(route.body).toContain('thicket-shell');
  });

  it.each(['/../package.json', '/%2e%2e/package.json', '/..%2fpackage.json', '/%2e%2e%2fpackage.json', '/assets/..%2f..%2fpackage.json', '/..\\package.json', '/%00'])(
    'refuses %s',
    async (path) => {
      const r = await rawGet(path);
      expect([400, 403, 404]).toContain(r.status);
      expect(r.body).not.toContain('outside-the-root');
    },
  );
});
