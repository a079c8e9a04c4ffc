/**
 * ThicketClient over a WebSocket to the headless host (browser mode, `npm run web`).
 *
 * Every request and reply is one binary frame (src-main/api/wire.ts), so typed arrays in a
 * cloud cross as raw bytes. The socket reconnects with exponential backoff; calls made while
 * it is (re)connecting are queued and sent once it opens. Calls already sent when the socket
 * drops are rejected, because the host forgets them with the connection.
 *
 * This file touches no DOM globals: the socket comes from a factory, so the frame handling is
 * unit-tested in Node with a fake socket (test/unit/renderer/ws-client.test.ts).
 */
import { ApiError, ERROR_CODES } from '../../src-main/api/contract';
import type { ApiEvent, ErrorCode, Method, Request, Response, ThicketClient } from '../../src-main/api/contract';
import { decodeFrame, encodeFrame } from '../../src-main/api/wire';
import type { WireMessage } from '../../src-main/api/wire';

/** The host closes with this code when the access token is missing or wrong. */
export const CLOSE_UNAUTHORIZED = 4401;

export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'unauthorized';

/** The part of the DOM WebSocket this client uses. */
export interface SocketLike {
  binaryType: string;
  send(data: Uint8Array<ArrayBuffer>): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

export interface WsClientOptions {
  url: string;
  createSocket: (url: string) => SocketLike;
  /** First retry delay; doubles up to maxDelayMs. */
  initialDelayMs?: number;
  maxDelayMs?: number;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  frame: Uint8Array<ArrayBuffer>;
  sent: boolean;
}

const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES);

export function toApiError(error: { code?: unknown; message?: unknown } | undefined): ApiError {
  const code = typeof error?.code === 'string' && KNOWN_CODES.has(error.code) ? (error.code as ErrorCode) : 'internal';
  const message = typeof error?.message === 'string' ? error.message : 'the host returned an error without a message';
  return new ApiError(code, message);
}

export class WsClient implements ThicketClient {
  private socket: SocketLike | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly eventHandlers = new Set<(event: ApiEvent) => void>();
  private readonly stateHandlers = new Set<(state: ConnectionState, detail: string) => void>();
  private delayMs: number;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private closedByUser = false;
  private _state: ConnectionState = 'connecting';
  private _detail = '';

  constructor(private readonly options: WsClientOptions) {
    this.delayMs = options.initialDelayMs ?? 250;
    this.connect();
  }

  get state(): ConnectionState {
    return this._state;
  }

  /** Human-readable reason for the current state (empty when open). */
  get detail(): string {
    return this._detail;
  }

  onState(handler: (state: ConnectionState, detail: string) => void): () => void {
    this.stateHandlers.add(handler);
    return () => this.stateHandlers.delete(handler);
  }

  onEvent(handler: (event: ApiEvent) => void): () => void {
    this.eventHandlers.add(handler);
    return () => this.eventHandlers.delete(handler);
  }

  call<M extends Method>(method: M, request: Request<M>): Promise<Response<M>> {
    if (this._state === 'unauthorized') return Promise.reject(new ApiError('unauthorized', this._detail));
    const id = this.nextId++;
    const frame = encodeFrame({ kind: 'request', id, method, params: request });
    return new Promise<Response<M>>((resolve, reject) => {
      const entry: Pending = { resolve: resolve as (v: unknown) => void, reject, frame, sent: false };
      this.pending.set(id, entry);
      if (this._state === 'open') this.send(entry);
    });
  }

  /** Stop for good (tests, page unload). */
  close(): void {
    this.closedByUser = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.socket?.close(1000, 'client closed');
    this.failAll(new ApiError('internal', 'the client was closed'));
  }

  private setState(state: ConnectionState, detail: string): void {
    this._state = state;
    this._detail = detail;
    for (const h of this.stateHandlers) h(state, detail);
  }

  private connect(): void {
    let socket: SocketLike;
    try {
      socket = this.options.createSocket(this.options.url);
    } catch (e) {
      this.scheduleRetry(`cannot open the connection: ${(e as Error).message}`);
      return;
    }
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    socket.onopen = () => {
      this.delayMs = this.options.initialDelayMs ?? 250;
      this.setState('open', '');
      for (const entry of this.pending.values()) if (!entry.sent) this.send(entry);
    };
    socket.onmessage = (ev) => this.receive(ev.data);
    socket.onerror = () => {
      /* onclose follows with the code; nothing to add here */
    };
    socket.onclose = (ev) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.closedByUser) return;
      if (ev.code === CLOSE_UNAUTHORIZED) {
        // The host accepts the socket and then closes it with 4401, so requests may already be
        // on the wire: all of them fail as unauthorized, and we stop retrying.
        const why = 'The host rejected the access token. Open the URL that `npm run web` printed (it carries ?token=…).';
        this.setState('unauthorized', why);
        this.failAll(new ApiError('unauthorized', why));
        return;
      }
      // Requests already on the wire die with the connection; queued ones wait for the next.
      for (const [id, entry] of this.pending) {
        if (entry.sent) {
          this.pending.delete(id);
          entry.reject(new ApiError('internal', 'the connection to the Thicket host was lost during the request'));
        }
      }
      this.scheduleRetry(ev.reason || `connection closed (code ${ev.code})`);
    };
  }

  private scheduleRetry(detail: string): void {
    this.setState('reconnecting', `${detail}; retrying in ${(this.delayMs / 1000).toFixed(1)} s`);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.closedByUser) return;
      this.setState('connecting', '');
      this.connect();
    }, this.delayMs);
    this.delayMs = Math.min(this.delayMs * 2, this.options.maxDelayMs ?? 5000);
  }

  private send(entry: Pending): void {
    entry.sent = true;
    this.socket!.send(entry.frame);
  }

  private receive(data: unknown): void {
    let message: WireMessage;
    try {
      const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : null;
      if (!bytes) throw new Error('expected a binary frame');
      message = decodeFrame(bytes) as WireMessage;
    } catch (e) {
      console.error('thicket: dropped an unreadable frame from the host:', e);
      return;
    }
    if (message.kind === 'event') {
      for (const h of this.eventHandlers) h(message.event as ApiEvent);
      return;
    }
    if (message.kind !== 'response') return;
    const entry = this.pending.get(message.id);
    if (!entry) return;
    this.pending.delete(message.id);
    if (message.ok) entry.resolve(message.result);
    else entry.reject(toApiError(message.error));
  }

  private failAll(error: ApiError): void {
    for (const entry of this.pending.values()) entry.reject(error);
    this.pending.clear();
  }
}
