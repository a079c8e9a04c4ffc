import type { ApiEvent } from '../api/contract';

/**
 * What a transport binding (Electron IPC, WebSocket) needs from the host: one entry point
 * that validates and runs a request, and a stream of events. `dispatch` rejects with an
 * `ApiError` (see api/contract.ts) whose `code` and `message` the binding forwards as-is.
 */
export interface ApiHost {
  dispatch(method: string, params: unknown): Promise<unknown>;
  onEvent(handler: (event: ApiEvent) => void): () => void;
}
