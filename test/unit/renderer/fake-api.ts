/**
 * A stand-in for the renderer's API client (src-renderer/api) in component tests: `call` answers
 * from per-method handlers (an unknown method rejects, so a test sees what it did not expect),
 * records every request, and `emit` delivers host events to the subscribers.
 *
 *   vi.mock('../../../src-renderer/api', () => import('./fake-api'));
 *   fake.handle('runs.list', () => [...]);
 */
import type { ApiEvent } from '../../../src-main/api/contract';

type Handler = (req: Record<string, unknown>) => unknown;

export class FakeApi {
  readonly calls: { method: string; req: Record<string, unknown> }[] = [];
  private handlers = new Map<string, Handler>();
  private listeners: ((e: ApiEvent) => void)[] = [];

  handle(method: string, handler: Handler): void {
    this.handlers.set(method, handler);
  }

  reset(): void {
    this.calls.length = 0;
    this.handlers.clear();
    this.listeners = [];
  }

  async call(method: string, req: Record<string, unknown>): Promise<unknown> {
    this.calls.push({ method, req });
    const h = this.handlers.get(method);
    if (!h) throw Object.assign(new Error(`no fake for ${method}`), { code: 'internal' });
    return h(req);
  }

  onEvent(listener: (e: ApiEvent) => void): () => void {
    this.listeners.push(listener);
    return () => (this.listeners = this.listeners.filter((l) => l !== listener));
  }

  emit(e: ApiEvent): void {
    for (const l of this.listeners) l(e);
  }

  methods(): string[] {
    return this.calls.map((c) => c.method);
  }
}

/** An error as the host sends it (code + message). */
export const hostError = (code: string, message: string) => Object.assign(new Error(message), { code });

export const fake = new FakeApi();

// The module surface of src-renderer/api that stores and views use.
export const api = fake;
export const connection = { state: 'open', detail: '', subscribe: () => () => {} };
export const hasNativeDialogs = false;
export const shell = 'web';
export const pickHostFile = () => Promise.reject(new Error('no dialogs in tests'));
export const pickHostSavePath = pickHostFile;
