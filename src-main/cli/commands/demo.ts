import type { DemoResult } from '../../api/contract';
import type { AppServices } from '../../services/app-services';
import { intFlag, requireProject, type CommonArgs } from '../args';
import { CliError } from '../cli-error';
import type { CommandOutput } from '../output';
import type { ProgressReporter } from '../progress';
import { waitForJob } from '../wait-job';
import { runTable43 } from '../../services/experiment-service';

/**
 * `thicket demo --project P [--seed N] [--small]`: the demo project's content (reference site,
 * its ground truth, training and test drives) in P, created when absent. Ctrl-C cancels the
 * running job and waits for it to clean up, so an interrupted demo leaves no drive logs.
 * Then (unless --no-experiment) the thesis's Table 4.3 experiment (services/experiment-service.ts):
 * the JSON adds `table` with one row per scene and simulator.
 */
export async function demoCommand(services: AppServices, args: CommonArgs, progress: ProgressReporter): Promise<CommandOutput> {
  const v = args.values;
  const path = requireProject(args);
  const seed = intFlag(v, 'seed') ?? 1;
  const small = v.small ?? false;

  // Ctrl-C: cancel every job of the demo (the site job, or the drives job it started) and wait
  // until their cleanup has run, then exit 130.
  let interrupted: Promise<void> | null = null;
  const onSigint = () => {
    progress.note('interrupted: cancelling the demo (nothing is kept)…');
    interrupted = services.requireSession().runner.cancelAll();
  };
  // Once the drives are stored the demo is kept; Ctrl-C then only stops the experiment (what it
  // finished — models, primitives, runs — stays, each stored whole).
  let drivesStored = false;
  const stopIfInterrupted = async () => {
    if (!interrupted) return;
    await interrupted;
    throw new CliError(drivesStored ? 'experiment cancelled: the demo drives and what the experiment finished are kept' : 'demo cancelled: nothing was stored', 130);
  };
  process.once('SIGINT', onSigint);
  try {
    progress.note(`building the reference site (seed ${seed}${small ? ', small' : ''})…`);
    // demo.create opens the project, or creates it when absent.
    const { job } = await services.call('demo.create', { seed, small, path });
    const first = await waitForJob(services, job.id, progress);
    await stopIfInterrupted();
    progress.note('simulating the training and test drives (HDL-32E, physics mode)…');
    const r = (await waitForJob(services, Number(first.drivesJob), progress)) as unknown as DemoResult;
    const lines = [
      `site: seed ${r.site.seed}, ${r.site.objects} objects, ${r.site.triangles} triangles (scene ${r.site.scene})`,
      ...r.logs.map((l) => `log ${l.log} ${l.name}: ${l.packets} packets, ${l.rays} rays, ${l.hits} hits, ${l.misses} misses`),
    ];
    drivesStored = true;
    if (v['no-experiment']) return { json: { site: r.site, logs: r.logs }, text: lines.join('\n') };
    const riskSamples = intFlag(v, 'risk-samples', 0, 10_000);
    const x = await runTable43(services, r, { seed, note: (m) => progress.note(m), ...(riskSamples !== undefined ? { risk: { samples: riskSamples } } : {}) });
    await stopIfInterrupted();
    const json = { site: r.site, logs: r.logs, table: x.table, experiment: { models: x.models, primitives: x.primitives, scenes: x.scenes, seconds: x.seconds } };
    const f = (n: number | null, d = 3) => (n === null ? '—' : n.toFixed(d));
    lines.push('', 'scene     simulator  packets  packetError  precision  recall  F1     pointCloudError  risk (scan matching)');
    for (const t of x.table) {
      lines.push(`${t.scene.padEnd(9)} ${t.simulator.padEnd(10)} ${String(t.packets).padStart(7)}  ${f(t.packetError).padStart(10)} m ${f(t.precision).padStart(9)}  ${f(t.recall).padStart(6)}  ${f(t.f1).padStart(5)}  ${f(t.pointCloudError).padStart(13)} m  ${f(t.risk).padStart(8)} m`);
    }
    return { json, text: lines.join('\n') };
  } catch (e) {
    await stopIfInterrupted();
    throw e;
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}
