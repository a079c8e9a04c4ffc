import type { AppServices } from '../../services/app-services';
import { intFlag, requireProject, type CommonArgs } from '../args';
import { CliError } from '../cli-error';
import type { CommandOutput } from '../output';
import type { ProgressReporter } from '../progress';
import { waitForJob } from '../wait-job';

/** `thicket log split --project P --log L --at K`: scans 1…K−1 and K… as two new logs (docs/drive-logs.md, "Scans"). */
export async function logCommand(services: AppServices, args: CommonArgs, progress: ProgressReporter): Promise<CommandOutput> {
  const sub = args.positionals[1];
  if (sub !== 'split') throw new CliError(`log: unknown subcommand "${sub ?? ''}" (known: split)`, 2);
  const v = args.values;
  if (v.log === undefined) throw new CliError('log split: --log ID is required', 2);
  if (v.at === undefined) throw new CliError('log split: --at K is required (the first scan of the second log, numbered from 1)', 2);
  const log = intFlag(v, 'log', 1)!;
  const at = intFlag(v, 'at', 0)!;
  await services.call('project.open', { path: requireProject(args) });
  const { job } = await services.call('logs.split', { id: log, at });
  progress.job(job);
  const r = (await waitForJob(services, job.id, progress)) as { logs: { log: number; name: string; scans: number; packets: number }[] };
  const text = r.logs.map((p) => `drive log ${p.log} "${p.name}": ${p.scans} scan(s), ${p.packets} packet(s)`).join('\n');
  return { json: { logs: r.logs }, text: `split drive log ${log} at scan ${at}:\n${text}` };
}
