/** Command line of the browser-mode host (out/main/web.js, `npm run web -- …`). */
import { parseArgs } from 'node:util';

export interface WebArgs {
  port: number;
  project: string | null;
  home: string | null;
  help: boolean;
}

export const WEB_USAGE = `Usage: npm run web -- [--port N] [--project FILE.thicket] [--home DIR]

  --port N        listen on 127.0.0.1:N (default: a free port)
  --project FILE  open this project at start
  --home DIR      Thicket's home folder: recent projects, settings (default: $THICKET_HOME,
                  else ~/.thicket); new projects go to its projects/ folder, or to ~/Thicket
                  when neither is given`;

/** Throws an Error with a user-facing message on bad input. */
export function parseWebArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): WebArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      project: { type: 'string' },
      home: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  let port = 0;
  if (values.port !== undefined) {
    port = Number(values.port);
    if (!/^\d+$/.test(values.port) || port > 65535) throw new Error(`--port expects an integer from 0 to 65535, got "${values.port}"`);
  }
  return {
    port,
    project: values.project ?? null,
    home: values.home ?? (env.THICKET_HOME || null),
    help: values.help ?? false,
  };
}
