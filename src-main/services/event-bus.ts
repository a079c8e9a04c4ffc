import type { ApiEvent } from '../api/contract';

/** Fan-out of host events to every binding (IPC window, WebSocket clients, CLI progress). */
export class EventBus {
  private readonly handlers = new Set<(e: ApiEvent) => void>();

  on(handler: (e: ApiEvent) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  emit(event: ApiEvent): void {
    for (const h of this.handlers) {
      try {
        h(event);
      } catch {
        // A failing listener (a closed socket) must not stop the others or the job that emitted.
      }
    }
  }
}
