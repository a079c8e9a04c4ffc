import type { AppServices } from '../../services/app-services';
import { requireProject, type CommonArgs } from '../args';
import { CliError } from '../cli-error';
import type { CommandOutput } from '../output';

export async function projectCommand(services: AppServices, args: CommonArgs): Promise<CommandOutput> {
  const sub = args.positionals[1];
  const path = requireProject(args);
  if (sub === 'create') {
    const info = await services.call('project.create', { path });
    return { json: info, text: `created ${info.path} (schema ${info.schemaVersion})` };
  }
  if (sub === 'info') {
    const info = await services.call('project.open', { path });
    const counts = Object.entries(info.counts).map(([k, n]) => `  ${k}: ${n}`).join('\n');
    return { json: info, text: `${info.path}\nschema version ${info.schemaVersion}\n${counts}` };
  }
  throw new CliError(`project: unknown subcommand "${sub ?? ''}" (expected create or info)`, 2);
}
