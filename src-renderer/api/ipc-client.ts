/**
 * ThicketClient over the Electron preload bridge (window.thicketBridge). Requests and typed
 * arrays cross by structured clone, so there is no framing here; the bridge returns a result
 * envelope instead of throwing because Electron flattens thrown errors into plain text.
 */
import type { ApiEvent, Method, Request, Response, ThicketClient } from '../../src-main/api/contract';
import type { ThicketBridge } from './bridge';
import { toApiError } from './ws-client';

export class IpcClient implements ThicketClient {
  constructor(private readonly bridge: ThicketBridge) {}

  async call<M extends Method>(method: M, request: Request<M>): Promise<Response<M>> {
    const reply = await this.bridge.invoke(method, request);
    if (reply.ok) return reply.result as Response<M>;
    throw toApiError(reply.error);
  }

  onEvent(handler: (event: ApiEvent) => void): () => void {
    return this.bridge.onEvent(handler);
  }
}
