/**
 * A log's or run's playback timeline (src-worker/formats/timeline.ts) from the packets' times,
 * poses and first directions, which the host feeds chunk by chunk.
 */
import type { MessagePort } from 'node:worker_threads';
import type { TaskContext } from './task-context';
import { TimelineBuilder, type PacketMeta, type TimelineData } from '../formats/timeline';
import { feedChunks } from './chunk-feed';

export interface LogTimelineInput {
  feed: MessagePort;
  maxPoses: number;
}

export async function logTimelineTask(input: LogTimelineInput, ctx: TaskContext): Promise<TimelineData> {
  const b = new TimelineBuilder();
  for await (const c of feedChunks<PacketMeta>(input.feed)) {
    ctx.checkCancelled();
    b.add(c);
  }
  return b.finish(input.maxPoses);
}
