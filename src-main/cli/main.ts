/**
 * The `thicket` CLI: every long job, headless. Contract (README.md, "The CLI"): progress on stderr;
 * with --json exactly one JSON object on stdout; exit 0 on success, non-zero with a clear message.
 */
import { parseCli, type CommonArgs } from './args';
import { CliError } from './cli-error';
import { ProgressReporter } from './progress';
import { USAGE } from './usage';
import { checkCommandFlags } from './command-flags';
import type { CommandOutput } from './output';
import { createAppServices, type AppServices } from '../services/app-services';
import { version } from '../services/version';
import { projectCommand } from './commands/project';
import { importCommand } from './commands/import';
import { benchCommand } from './commands/bench';
import { profileCommand } from './commands/profile';
import { sceneCommand } from './commands/scene';
import { simulateCommand } from './commands/simulate';
import { validateCommand } from './commands/validate';
import { demoCommand } from './commands/demo';
import { exportCommand } from './commands/export';
import { studyCommand } from './commands/study';
import { fitCommand } from './commands/fit';
import { evaluateCommand } from './commands/evaluate';
import { primitivesCommand } from './commands/primitives';
import { experimentCommand } from './commands/experiment';
import { logCommand } from './commands/log';
import { noiseCommand } from './commands/noise';
import { annotationCommand } from './commands/annotation';
import { riskCommand } from './commands/risk';

type Command = (services: AppServices, args: CommonArgs, progress: ProgressReporter) => Promise<CommandOutput>;

const COMMANDS: Record<string, Command> = {
  project: projectCommand,
  import: importCommand,
  bench: benchCommand,
  profile: profileCommand,
  scene: sceneCommand,
  simulate: simulateCommand,
  validate: validateCommand,
  demo: demoCommand,
  export: exportCommand,
  study: studyCommand,
  fit: fitCommand,
  evaluate: evaluateCommand,
  primitives: primitivesCommand,
  log: logCommand,
  noise: noiseCommand,
  annotation: annotationCommand,
  experiment: experimentCommand,
  risk: riskCommand,
};

export async function runCli(argv: string[]): Promise<number> {
  let services: AppServices | null = null;
  let json = argv.includes('--json');
  try {
    const args = parseCli(argv);
    json = args.json;
    if (args.version) {
      process.stdout.write(json ? `${JSON.stringify({ version })}\n` : `thicket ${version}\n`);
      return 0;
    }
    const name = args.positionals[0];
    if (args.help || !name || name === 'help') {
      process.stdout.write(USAGE);
      return 0;
    }
    const command = COMMANDS[name];
    if (!command) throw new CliError(`unknown command "${name}"\nRun \`thicket --help\` for usage.`, 2);
    checkCommandFlags(name, args.values);
    services = await createAppServices({ shell: 'cli', workers: args.workers });
    const out = await command(services, args, new ProgressReporter(process.stderr, args.quiet));
    process.stdout.write(json ? `${JSON.stringify(out.json)}\n` : `${out.text}\n`);
    return 0;
  } catch (e) {
    const code = e instanceof CliError ? e.exitCode : 1;
    const message = e instanceof Error ? e.message : String(e);
    process.stderr.write(`thicket: ${message}\n`);
    if (json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
    return code;
  } finally {
    await services?.close();
  }
}

// Run when executed as the entry (out/main/cli.js or via bin/thicket.js), not when imported by tests.
if (process.env.THICKET_CLI_NO_AUTORUN !== '1') {
  runCli(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`thicket: ${String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
