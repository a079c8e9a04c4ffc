/**
 * Application-level risk of a run against a drive log on the pool (src-main/services/
 * risk-service.ts; the method: src-worker/apps/risk.ts, docs/methods.md "Application-level risk").
 * Each side arrives through its own feed (chunk-feed.ts) and is kept as every `stride`-th hit.
 */
import type { MessagePort } from 'node:worker_threads';
import type { TaskContext } from './task-context';
import type { PacketChunk } from '../../src-common/packets';
import { feedChunks } from './chunk-feed';
import { LogPointsBuilder, type LogPoints } from '../apps/log-points';
import { applicationRisk, DEFAULT_RISK_OPTIONS, RiskInputError, type RiskOptions, type RiskResult } from '../apps/risk';
import type { Application } from '../apps/alpha-sampling';

export interface RiskTaskInput {
  real: MessagePort;
  sim: MessagePort;
  application: Application;
  options: Partial<RiskOptions>;
  /** Keep every stride-th hit of each side. */
  strides: { real: number; sim: number };
  names: { real: string; sim: string };
}

export { RiskInputError };
export type { RiskResult };

async function read(port: MessagePort, stride: number, ctx: TaskContext, what: string): Promise<LogPoints> {
  const b = new LogPointsBuilder(stride);
  for await (const c of feedChunks<PacketChunk>(port)) {
    ctx.checkCancelled();
    b.add(c);
  }
  ctx.progress(0, `read ${what}`);
  return b.finish();
}

export async function riskTask(input: RiskTaskInput, ctx: TaskContext): Promise<RiskResult> {
  ctx.progress(0, 'reading the log and the run', true);
  const real = await read(input.real, input.strides.real, ctx, input.names.real);
  const sim = await read(input.sim, input.strides.sim, ctx, input.names.sim);
  const options: RiskOptions = { ...DEFAULT_RISK_OPTIONS, ...input.options };
  const result = applicationRisk(input.application, real, sim, options, {
    progress: (f) => ctx.progress(f, `${input.application}: α samples`),
    checkCancelled: () => ctx.checkCancelled(),
    names: input.names,
  });
  ctx.progress(1, 'risk computed', true);
  return result;
}
