import type { MessagePort, Transferable } from 'node:worker_threads';
import { TaskCancelledError, type TaskMessage } from './protocol';

/** What a task uses to talk to the runner: throttled progress, streamed output, cancellation. */
export class TaskContext {
  private lastProgressAt = 0;
  private lastFraction = -1;

  constructor(
    private readonly port: MessagePort,
    private readonly cancelFlag: Int32Array,
    /** Minimum milliseconds between progress messages (the last one of a stage always goes). */
    private readonly progressIntervalMs = 50,
  ) {}

  get cancelled(): boolean {
    return Atomics.load(this.cancelFlag, 0) !== 0;
  }

  /** Call in every loop that can run long; throws TaskCancelledError once cancel is requested. */
  checkCancelled(): void {
    if (this.cancelled) throw new TaskCancelledError();
  }

  progress(fraction: number, message: string, force = false): void {
    const f = Math.min(1, Math.max(0, fraction));
    const now = Date.now();
    if (!force && now - this.lastProgressAt < this.progressIntervalMs && f - this.lastFraction < 0.05) return;
    this.lastProgressAt = now;
    this.lastFraction = f;
    this.post({ type: 'progress', fraction: f, message });
  }

  post(message: TaskMessage, transfer: Transferable[] = []): void {
    this.port.postMessage(message, transfer);
  }
}
