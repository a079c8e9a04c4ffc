/**
 * The WebSocket binding of the ThicketApi (browser mode): one binary frame per request,
 * response and event (src-main/api/wire.ts), so typed arrays cross as raw bytes.
 *
 * Who may connect: only loopback peers, only on `path`, only with `?token=` equal to the
 * host's random token. A page from a foreign origin is refused before the token is looked at,
 * which also defeats DNS rebinding (the attacker's page keeps its own Origin).
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { createHash, timingSafeEqual } from 'node:crypto';
import { WebSocketServer, WebSocket } from 'ws';
import type { RawData } from 'ws';
import type { ApiHost } from '../services/api-host';
import { decodeFrame, encodeFrame } from '../api/wire';
import type { WireResponse } from '../api/wire';
import { toErrorData } from './errors';

/**
 * Largest accepted message. `logs.importBytes` uploads a whole scan picked in a browser file
 * input as one frame, and ws buffers a message fully before we see it, so this is both the
 * upload size limit and the memory bound per message (decoding copies it once more). 1 GiB
 * holds a long drive log while keeping a runaway client from exhausting the host's memory.
 */
export const MAX_PAYLOAD_BYTES = 1024 ** 3;

/** Close code for a missing or wrong token; the renderer's client stops retrying on it. */
export const CLOSE_BAD_TOKEN = 4401;

export interface WsBindingOptions {
  token: string;
  path: '/api';
  maxPayload?: number;
}

export interface WsBinding {
  /** Connected, authenticated clients. */
  readonly clientCount: number;
  /** Stop accepting, close every client (1001) and unsubscribe from host events. */
  close(): Promise<void>;
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Constant-time token comparison (hashing first makes the lengths equal). */
export function tokenMatches(given: string | null, expected: string): boolean {
  if (given === null) return false;
  return timingSafeEqual(digest(given), digest(expected));
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.startsWith('::ffff:') ? address.slice(7) : address;
  return a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

/** No Origin (a non-browser client) or a page served from a loopback host, any port. */
function originAllowed(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  try {
    const { hostname } = new URL(origin);
    return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]';
  } catch {
    return false;
  }
}

function reject(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  return data instanceof ArrayBuffer ? new Uint8Array(data) : data;
}

export function bindWebSocket(server: Server, host: ApiHost, opts: WsBindingOptions): WsBinding {
  if (!opts.token) throw new Error('bindWebSocket needs a non-empty token');
  // perMessageDeflate stays off: float clouds barely compress and deflating them costs seconds.
  const wss = new WebSocketServer({ noServer: true, maxPayload: opts.maxPayload ?? MAX_PAYLOAD_BYTES, perMessageDeflate: false });
  const clients = new Set<WebSocket>();

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // An unhandled 'error' on a socket would take the whole host down.
    socket.on('error', () => socket.destroy());
    const url = URL.canParse(req.url ?? '/', 'http://127.0.0.1') ? new URL(req.url ?? '/', 'http://127.0.0.1') : null;
    if (!url || url.pathname !== opts.path) return reject(socket, 404, 'Not Found');
    if (!isLoopback(req.socket.remoteAddress)) return reject(socket, 403, 'Forbidden');
    if (!originAllowed(req.headers.origin)) return reject(socket, 403, 'Forbidden');
    const authorized = tokenMatches(url.searchParams.get('token'), opts.token);
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('error', () => clients.delete(ws));
      // Accept, then close with 4401: a browser sees an HTTP 401 only as a generic failure,
      // but it sees this close code, so the page can say "stale token" instead of retrying.
      if (!authorized) return ws.close(CLOSE_BAD_TOKEN, 'bad token');
      clients.add(ws);
      ws.on('close', () => clients.delete(ws));
      ws.on('message', (data, isBinary) => void handle(ws, data, isBinary));
    });
  };
  server.on('upgrade', onUpgrade);

  const reply = (ws: WebSocket, message: WireResponse) => {
    let frame: Uint8Array;
    try {
      frame = encodeFrame(message);
    } catch (e) {
      // e.g. a result JSON cannot represent (BigInt, cycle): still answer the request.
      frame = encodeFrame({ kind: 'response', id: message.id, ok: false, error: toErrorData(e) } satisfies WireResponse);
    }
    if (ws.readyState === WebSocket.OPEN) ws.send(frame, { binary: true });
  };

  const invalid = (ws: WebSocket, id: number, message: string) =>
    reply(ws, { kind: 'response', id, ok: false, error: { code: 'invalid_request', message } });

  async function handle(ws: WebSocket, data: RawData, isBinary: boolean): Promise<void> {
    // Id 0 answers a frame whose own id is unreadable; clients number requests from 1.
    if (!isBinary) return invalid(ws, 0, 'requests must be binary frames (see src-main/api/wire.ts)');
    let req: unknown;
    try {
      req = decodeFrame(toBytes(data));
    } catch (e) {
      return invalid(ws, 0, `undecodable frame: ${(e as Error).message}`);
    }
    const r = (req ?? {}) as Record<string, unknown>;
    const id = Number.isSafeInteger(r.id) ? (r.id as number) : 0;
    if (typeof req !== 'object' || r.kind !== 'request' || id === 0 || typeof r.method !== 'string') {
      return invalid(ws, id, 'expected {kind: "request", id: positive integer, method: string, params}');
    }
    try {
      const result = await host.dispatch(r.method, r.params);
      reply(ws, { kind: 'response', id, ok: true, result });
    } catch (e) {
      const error = toErrorData(e);
      if (error.code === 'internal') console.error(`thicket: ${r.method} failed:`, e);
      reply(ws, { kind: 'response', id, ok: false, error });
    }
  }

  const unsubscribe = host.onEvent((event) => {
    if (clients.size === 0) return;
    const frame = encodeFrame({ kind: 'event', event });
    for (const ws of clients) if (ws.readyState === WebSocket.OPEN) ws.send(frame, { binary: true });
  });

  return {
    get clientCount() {
      return clients.size;
    },
    close() {
      server.off('upgrade', onUpgrade);
      unsubscribe();
      for (const ws of clients) ws.close(1001, 'host shutting down');
      // Give clients a moment for the closing handshake, then cut whatever is left.
      const timer = setTimeout(() => {
        for (const ws of wss.clients) ws.terminate();
      }, 500);
      return new Promise<void>((resolve) => {
        wss.close(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}
