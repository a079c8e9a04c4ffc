/**
 * Learn a sensor noise model from a drive log of repeated static scans (docs/methods.md §8): the
 * host feeds the log's chunks (chunk-feed.ts); their first returns are binned into cells per scan
 * (noise/features.ts), then P-Reg or NP-Reg is learnt and scored (noise/learn.ts).
 */
import type { MessagePort } from 'node:worker_threads';
import type { TaskContext } from './task-context';
import type { PacketChunk } from '../../src-common/packets';
import type { LearnedNoiseTables, NoiseLearnSummary, NoiseMethod } from '../../src-common/noise-model';
import { feedChunks } from './chunk-feed';
import { CellCollector } from '../noise/features';
import { learnNoise } from '../noise/learn';

export interface LearnNoiseInput {
  feed: MessagePort;
  method: NoiseMethod;
  testFraction: number;
  seed: number;
  /** The log's profile's constant range σ (m), scored as a baseline. */
  profileSigma?: number;
  /** Packets in the log (for progress). */
  packets: number;
  /** The log, as errors name it ("drive log 3 (name)"). */
  where: string;
}

export interface LearnNoiseOutput {
  summary: NoiseLearnSummary;
  tables: LearnedNoiseTables;
}

export async function learnNoiseTask(input: LearnNoiseInput, ctx: TaskContext): Promise<LearnNoiseOutput> {
  const t0 = performance.now();
  const collector = new CellCollector();
  let read = 0;
  for await (const c of feedChunks<PacketChunk>(input.feed)) {
    ctx.checkCancelled();
    collector.add(c);
    read += c.packetCount;
    ctx.progress((0.3 * read) / Math.max(1, input.packets), 'reading the scans');
  }
  const cells = collector.finish();
  let out: ReturnType<typeof learnNoise>;
  try {
    out = learnNoise(cells, {
      method: input.method,
      testFraction: input.testFraction,
      seed: input.seed,
      ...(input.profileSigma !== undefined ? { profileSigma: input.profileSigma } : {}),
      progress: (f) => {
        ctx.checkCancelled();
        ctx.progress(0.3 + 0.7 * f, `learning ${input.method}`);
      },
    });
  } catch (e) {
    // Data that cannot make a model (too few scans or cells): the log and the reason.
    if (e instanceof RangeError) throw new Error(`${input.where}: ${e.message}`, { cause: e });
    throw e;
  }
  return { summary: { ...out.summary, seconds: Math.round((performance.now() - t0) / 10) / 100 }, tables: out.tables };
}
