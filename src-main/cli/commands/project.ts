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
    const damaged = info.damaged ? `\nDAMAGED, open read-only: ${info.damaged}` : '';
    return { json: info, text: `${info.path}\nschema version ${info.schemaVersion}\n${counts}${damaged}` };
  }
  if (sub === 'compact') {
    await services.call('project.open', { path });
    const r = await services.call('project.compact', {});
    const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
    return { json: r, text: `compacted ${r.path}: ${mb(r.bytesBefore)} → ${mb(r.bytesAfter)} (${(100 * r.freeFractionBefore).toFixed(0)} % of it was unused)` };
  }
  throw new CliError(`project: unknown subcommand "${sub ?? ''}" (expected create, info or compact)`, 2);
}
