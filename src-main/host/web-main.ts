/**
 * Entry of browser mode (built to out/main/web.js; `npm run web`): the same services as the
 * Electron shell, served to a browser on 127.0.0.1 behind a random token.
 * stdout carries exactly the URL lines (tests and scripts parse `THICKET_URL=`); everything
 * else goes to stderr.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAppServices } from '../services/app-services';
import type { AppServices } from '../services/app-services';
import { parseWebArgs, WEB_USAGE } from './web-args';
import { startWebHost } from './web-host';
import type { WebHost } from './web-host';
import { toErrorData } from './errors';

async function main(): Promise<void> {
  let args;
  try {
    args = parseWebArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${WEB_USAGE}`);
    process.exit(2);
  }
  if (args.help) {
    console.log(WEB_USAGE);
    return;
  }
  const rendererDir = fileURLToPath(new URL('../renderer/', import.meta.url));
  if (!existsSync(join(rendererDir, 'index.html'))) {
    throw new Error(`the renderer is not built (${rendererDir}index.html is missing); run npm run build`);
  }

  let services: AppServices | null = null;
  let host: WebHost | null = null;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    // A wedged job must not keep Ctrl-C from working.
    setTimeout(() => process.exit(code || 1), 5000).unref();
    await host?.close().catch((e: unknown) => console.error('thicket: closing the server failed:', e));
    await services?.close().catch((e: unknown) => console.error('thicket: closing services failed:', e));
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  try {
    services = await createAppServices({ shell: 'web', homeDir: args.home ?? undefined });
    if (args.project) {
      try {
        await services.dispatch('project.open', { path: args.project });
      } catch (e) {
        throw new Error(`cannot open ${args.project}: ${toErrorData(e).message}`, { cause: e });
      }
    }
    host = await startWebHost({ host: services, rendererDir, port: args.port });
  } catch (e) {
    console.error(`thicket: ${(e as Error).message}`);
    await stop(1);
    return;
  }
  console.log(`Thicket browser mode: ${host.url}`);
  console.log(`THICKET_URL=${host.url}`);
  console.error('Open the URL above in a browser. Press Ctrl+C to stop.');
}

main().catch((e: unknown) => {
  console.error(`thicket: ${(e as Error).message}`);
  process.exit(1);
});
