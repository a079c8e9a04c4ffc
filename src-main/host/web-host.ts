/**
 * The browser-mode host: the static renderer and the WebSocket API on one HTTP server bound
 * to 127.0.0.1 only. The random token in the printed URL is the only credential, so anyone
 * else on this machine who cannot read our stdout cannot drive the API.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { ApiHost } from '../services/api-host';
import { createStaticHandler } from './static-server';
import { bindWebSocket } from './ws-binding';

export interface WebHostOptions {
  host: ApiHost;
  /** The built renderer (out/renderer/). */
  rendererDir: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Defaults to 32 random bytes, hex. */
  token?: string;
}

export interface WebHost {
  /** `http://127.0.0.1:PORT/?token=…`, the page to open. */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const BIND_ADDRESS = '127.0.0.1';

export async function startWebHost(opts: WebHostOptions): Promise<WebHost> {
  const token = opts.token ?? randomBytes(32).toString('hex');
  if (!token) throw new Error('the access token may not be empty');
  const server = createServer(createStaticHandler(opts.rendererDir));
  const ws = bindWebSocket(server, opts.host, { token, path: '/api' });

  await new Promise<void>((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) => {
      void ws.close();
      reject(e.code === 'EADDRINUSE' ? new Error(`port ${opts.port} on ${BIND_ADDRESS} is already in use; pick another with --port`) : e);
    };
    server.once('error', onError);
    server.listen(opts.port ?? 0, BIND_ADDRESS, () => {
      server.off('error', onError);
      resolve();
    });
  });

  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${BIND_ADDRESS}:${port}/?token=${encodeURIComponent(token)}`,
    port,
    token,
    close() {
      closing ??= (async () => {
        await ws.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Keep-alive HTTP connections would hold close() open for seconds.
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}
