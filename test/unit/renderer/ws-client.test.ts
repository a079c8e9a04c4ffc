import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src-main/api/contract';
import type { ApiEvent, JobInfo } from '../../../src-main/api/contract';
import { decodeFrame, encodeFrame } from '../../../src-main/api/wire';
import type { WireRequest } from '../../../src-main/api/wire';
import { CLOSE_UNAUTHORIZED, WsClient } from '../../../src-renderer/api/ws-client';
import type { ConnectionState, SocketLike } from '../../../src-renderer/api/ws-client';

/** A scriptable stand-in for the browser WebSocket. */
class FakeSocket implements SocketLike {
  binaryType = 'blob';
  sent: WireRequest[] = [];
  closed = false;
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number; reason: string }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  constructor(readonly url: string) {}
  send(data: Uint8Array<ArrayBuffer>): void {
    this.sent.push(decodeFrame(data) as WireRequest);
  }
  close(): void {
    this.closed = true;
  }
  open(): void {
    this.onopen?.({});
  }
  /** Deliver a message as the browser would: an ArrayBuffer holding one frame. */
  deliver(message: unknown): void {
    const f = encodeFrame(message);
    this.onmessage?.({ data: f.buffer.slice(f.byteOffset, f.byteOffset + f.byteLength) });
  }
  drop(code = 1006, reason = ''): void {
    this.onclose?.({ code, reason });
  }
}

let sockets: FakeSocket[];
const latest = () => sockets[sockets.length - 1]!;

function makeClient() {
  return new WsClient({
    url: 'ws://127.0.0.1:1/api?token=t',
    createSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    initialDelayMs: 100,
    maxDelayMs: 400,
  });
}

beforeEach(() => {
  sockets = [];
});
afterEach(() => {
  vi.useRealTimers();
});

describe('WsClient', () => {
  it('queues calls until the socket opens, then sends one binary request frame each', async () => {
    const c = makeClient();
    expect(latest().binaryType).toBe('arraybuffer');
    const p = c.call('logs.get', { id: 3 });
    expect(latest().sent).toEqual([]);
    latest().open();
    expect(c.state).toBe('open');
    expect(latest().sent).toEqual([{ kind: 'request', id: 1, method: 'logs.get', params: { id: 3 } }]);
    latest().deliver({ kind: 'response', id: 1, ok: true, result: { id: 3, name: 'a' } });
    await expect(p).resolves.toEqual({ id: 3, name: 'a' });
    c.close();
  });

  it('matches responses by id and revives typed arrays', async () => {
    const c = makeClient();
    latest().open();
    const a = c.call('app.info', {});
    const b = c.call('logs.cloud', { id: 1, budget: 1000 });
    const positions = new Float32Array([1, 2, 3]);
    latest().deliver({ kind: 'response', id: 2, ok: true, result: { positions } });
    latest().deliver({ kind: 'response', id: 1, ok: true, result: { name: 'Thicket' } });
    const cloud = (await b) as unknown as { positions: Float32Array };
    expect(cloud.positions).toBeInstanceOf(Float32Array);
    expect([...cloud.positions]).toEqual([1, 2, 3]);
    await expect(a).resolves.toEqual({ name: 'Thicket' });
    c.close();
  });

  it('rejects with an ApiError carrying the host code and message', async () => {
    const c = makeClient();
    latest().open();
    const p = c.call('project.create', { path: 'x.txt' });
    latest().deliver({ kind: 'response', id: 1, ok: false, error: { code: 'invalid_request', message: 'a project file name ends in .thicket' } });
    const e = await p.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ code: 'invalid_request', message: 'a project file name ends in .thicket' });
    const q = c.call('app.info', {});
    latest().deliver({ kind: 'response', id: 2, ok: false, error: { code: 'weird', message: 'm' } });
    await expect(q).rejects.toMatchObject({ code: 'internal', message: 'm' });
    c.close();
  });

  it('passes host events to subscribers until they unsubscribe', () => {
    const c = makeClient();
    latest().open();
    const seen: ApiEvent[] = [];
    const off = c.onEvent((e) => seen.push(e));
    const job = { id: 1, kind: 'import', state: 'running', progress: 0.5 } as JobInfo;
    latest().deliver({ kind: 'event', event: { type: 'job', job } });
    latest().deliver({ kind: 'event', event: { type: 'project', entity: 'driveLogs', id: 4 } });
    off();
    latest().deliver({ kind: 'event', event: { type: 'project', entity: 'project' } });
    expect(seen).toEqual([
      { type: 'job', job },
      { type: 'project', entity: 'driveLogs', id: 4 },
    ]);
    c.close();
  });

  it('ignores unreadable frames without breaking later ones', async () => {
    const c = makeClient();
    latest().open();
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    latest().onmessage?.({ data: new Uint8Array([1, 2]).buffer });
    latest().onmessage?.({ data: 'text frame' });
    expect(err).toHaveBeenCalledTimes(2);
    err.mockRestore();
    const p = c.call('app.info', {});
    latest().deliver({ kind: 'response', id: 1, ok: true, result: 1 });
    await expect(p).resolves.toBe(1);
    c.close();
  });

  it('reconnects with doubling backoff, fails in-flight calls and resends queued ones', async () => {
    vi.useFakeTimers();
    const c = makeClient();
    const states: ConnectionState[] = [];
    c.onState((s) => states.push(s));
    latest().open();
    const inflight = c.call('app.info', {});
    latest().drop(1006);
    await expect(inflight).rejects.toMatchObject({ code: 'internal' });
    expect(c.state).toBe('reconnecting');
    const queued = c.call('project.current', {});
    vi.advanceTimersByTime(99);
    expect(sockets.length).toBe(1);
    vi.advanceTimersByTime(1);
    expect(sockets.length).toBe(2);
    latest().drop(1006); // second failure waits twice as long
    vi.advanceTimersByTime(199);
    expect(sockets.length).toBe(2);
    vi.advanceTimersByTime(1);
    expect(sockets.length).toBe(3);
    latest().open();
    expect(latest().sent.map((r) => r.method)).toEqual(['project.current']);
    latest().deliver({ kind: 'response', id: latest().sent[0]!.id, ok: true, result: null });
    await expect(queued).resolves.toBeNull();
    expect(states).toEqual(['open', 'reconnecting', 'connecting', 'reconnecting', 'connecting', 'open']);
    c.close();
  });

  it('stops on close code 4401 with a clear unauthorized error', async () => {
    vi.useFakeTimers();
    const c = makeClient();
    const pending = c.call('app.info', {});
    latest().drop(CLOSE_UNAUTHORIZED, 'bad token');
    await expect(pending).rejects.toMatchObject({ code: 'unauthorized' });
    expect(c.state).toBe('unauthorized');
    expect(c.detail).toMatch(/token/);
    vi.advanceTimersByTime(10_000);
    expect(sockets.length).toBe(1);
    await expect(c.call('app.info', {})).rejects.toBeInstanceOf(ApiError);
  });

  it('fails requests already sent as unauthorized when the host accepts, then closes with 4401', async () => {
    const c = makeClient();
    latest().open();
    const sent = c.call('project.current', {});
    expect(latest().sent.length).toBe(1);
    latest().drop(CLOSE_UNAUTHORIZED);
    await expect(sent).rejects.toMatchObject({ code: 'unauthorized' });
    c.close();
  });
});
