/**
 * Fitting a model to a drive log, in two stages on the pool (src-main/services/fit-service.ts):
 *
 *  - `elements` (one task): steps 1–5 of src-worker/fit/fit.ts — cloud, segmentation, ground
 *    mesh, ellipsoids, voxels — and the replay scene built in shared memory; posts them as the
 *    output 'elements' (element arrays transferred, the scene shared).
 *  - `replay` (one task per fixed batch of packets, in parallel): step 6 for its packets against
 *    the shared scene; posts its counts as the output 'counts' (transferred).
 *
 * The log's chunks arrive in SharedArrayBuffers (fit-service copies them there once), so every
 * replay batch reads the same bytes the first stage read.
 */
import type { TaskContext } from './task-context';
import { fitElements, replayPackets, type FitInput, type ReplayInput } from '../fit/fit';
import type { FitLogChunk } from '../fit/log-input';
import type { ReplayCounts } from '../fit/replay';
import type { Transferable } from 'node:worker_threads';

/** The first stage's output 'elements': the fitted elements and the replay's shared scene. */
export type { FittedElements } from '../fit/fit';

export type FitModelInput =
  | ({ stage: 'elements' } & FitInput)
  | {
      stage: 'replay';
      fitted: ReplayInput;
      /** The chunks holding the batch's packets (shared). */
      chunks: FitLogChunk[];
      firstPacket: number;
      packetCount: number;
    };

export interface FitModelSummary {
  stage: 'elements' | 'replay';
  rays: number;
  elements?: { triangles: number; ellipsoids: number; voxels: number };
}

export function fitModelTask(input: FitModelInput, ctx: TaskContext): FitModelSummary {
  const hooks = { progress: (f: number, m: string) => ctx.progress(f, m), checkCancelled: () => ctx.checkCancelled() };
  if (input.stage === 'elements') {
    ctx.progress(0, 'reading the log', true);
    const fitted = fitElements(input, { ...hooks, progress: (f, m) => ctx.progress(Math.min(1, f / 0.5), m) }, { sharedScene: true });
    const e = fitted.elements;
    const transfer: Transferable[] = [];
    for (const a of Object.values(e) as ArrayBufferView[]) if (a.buffer instanceof ArrayBuffer) transfer.push(a.buffer);
    transfer.push(fitted.trail.buffer as ArrayBuffer);
    ctx.post({ type: 'output', name: 'elements', value: fitted }, transfer);
    ctx.progress(1, 'elements fitted', true);
    return {
      stage: 'elements',
      rays: fitted.report.counts.rays,
      elements: { triangles: e.groundBlock.length, ellipsoids: e.ellipsoidBlock.length, voxels: e.voxelBlock.length },
    };
  }
  const counts: ReplayCounts = replayPackets(input.fitted, input.chunks, input.firstPacket, input.packetCount, hooks);
  const transfer: Transferable[] = [];
  for (const a of Object.values(counts)) if (ArrayBuffer.isView(a) && a.buffer instanceof ArrayBuffer) transfer.push(a.buffer);
  ctx.post({ type: 'output', name: 'counts', value: counts }, transfer);
  ctx.progress(1, 'replayed', true);
  return { stage: 'replay', rays: counts.rays };
}
