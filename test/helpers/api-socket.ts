/**
 * A Node client of a running browser-mode host's WebSocket API (the token from its printed URL),
 * so an end-to-end test can set up data through the API, then check what the page shows.
 */
import WebSocket from 'ws';
import { ApiError, type ErrorCode, type JobInfo, type Method, type Request, type Response } from '../../src-main/api/contract';
import { decodeFrame, encodeFrame, type WireMessage } from '../../src-main/api/wire';

export interface ApiSocket {
  call<M extends Method>(method: M, request: Request<M>): Promise<Response<M>>;
  /** Polls a job until it leaves queued/running; throws with its error unless it is done. */
  waitForJob(id: number, timeoutMs?: number): Promise<JobInfo>;
  close(): void;
}

export async function connectApi(hostUrl: string): Promise<ApiSocket> {
  const u = new URL(hostUrl);
  const ws = new WebSocket(`ws://${u.host}/api?token=${encodeURIComponent(u.searchParams.get('token') ?? '')}`);
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  ws.on('message', (data: Buffer) => {
    const m = decodeFrame(new Uint8Array(data)) as WireMessage;
    if (m.kind !== 'response') return;
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.ok) p.resolve(m.result);
    else p.reject(new ApiError((m.error?.code ?? 'internal') as ErrorCode, m.error?.message ?? 'unknown error'));
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let nextId = 1;
  const call = <M extends Method>(method: M, request: Request<M>): Promise<Response<M>> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      ws.send(encodeFrame({ kind: 'request', id, method, params: request }));
    });
  return {
    call,
    async waitForJob(id, timeoutMs = 120_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const job = await call('jobs.get', { id });
        if (job.state === 'done') return job;
        if (job.state !== 'queued' && job.state !== 'running') throw new Error(`job ${id} (${job.kind}) ended ${job.state}: ${job.error ?? ''}`);
        if (Date.now() > until) throw new Error(`job ${id} (${job.kind}) still ${job.state} after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    close: () => ws.close(),
  };
}
