/**
 * The messages between the job runner (src-main/jobs) and worker tasks.
 *
 * A task receives one `TaskEnvelope`: its name, its input, a MessagePort for progress and
 * streamed output (chunks travel with transfer lists, never copied), and a one-element
 * Int32Array over a SharedArrayBuffer that the runner sets to 1 to cancel. Tasks poll it
 * in their loops (TaskContext.checkCancelled), so cancellation reaches the loop itself.
 * The task's return value is a small JSON summary; bulk output goes through the port.
 */
import { CANCELLED_MESSAGE } from '../../src-common/cancellation';
import type { MessagePort } from 'node:worker_threads';
import type { PacketChunk } from '../../src-common/packets';

export interface TaskEnvelope<I = unknown> {
  task: string;
  input: I;
  port: MessagePort;
  cancel: Int32Array;
}

export type TaskMessage =
  | { type: 'progress'; fraction: number; message: string }
  | { type: 'chunk'; chunk: PacketChunk }
  | { type: 'output'; name: string; value: unknown }
  /** Last message of every task (success or not): messages on one port are ordered, so the
   * runner knows every chunk before it has been handled when this arrives. */
  | { type: 'end' };

/** Thrown inside a task when its cancel flag is set; the runner maps it to state 'cancelled'. */
export class TaskCancelledError extends Error {
  constructor() {
    super(CANCELLED_MESSAGE);
    this.name = 'TaskCancelledError';
  }
}
