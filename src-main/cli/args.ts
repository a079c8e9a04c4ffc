import { parseArgs } from 'node:util';
import { CliError } from './cli-error';

export interface CommonArgs {
  positionals: string[];
  project?: string;
  json: boolean;
  quiet: boolean;
  workers?: number;
  format?: string;
  name?: string;
  help: boolean;
  version: boolean;
}

export function parseCli(argv: string[]): CommonArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        project: { type: 'string' },
        json: { type: 'boolean', default: false },
        quiet: { type: 'boolean', default: false },
        workers: { type: 'string' },
        format: { type: 'string' },
        name: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', short: 'v', default: false },
      },
    });
  } catch (e) {
    throw new CliError(`${(e as Error).message}\nRun \`thicket --help\` for usage.`, 2);
  }
  const v = parsed.values;
  let workers: number | undefined;
  if (v.workers !== undefined) {
    workers = Number(v.workers);
    if (!Number.isInteger(workers) || workers < 1 || workers > 256) throw new CliError(`--workers: expected a whole number from 1 to 256, got "${v.workers}"`, 2);
  }
  return {
    positionals: parsed.positionals,
    project: v.project,
    json: v.json ?? false,
    quiet: v.quiet ?? false,
    workers,
    format: v.format,
    name: v.name,
    help: v.help ?? false,
    version: v.version ?? false,
  };
}

export function requireProject(args: CommonArgs): string {
  if (!args.project) throw new CliError('--project FILE is required (a .thicket project file)', 2);
  return args.project;
}
