/**
 * Serves the built renderer (out/renderer/) in browser mode. Read-only, GET/HEAD only, and
 * never a byte from outside the root: the decoded path is resolved and must stay inside the
 * (real) root, so `/../`, `%2e%2e`, `..%2f` and symlinks out are all refused.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createReadStream, realpathSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { rendererCsp } from './csp';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.glb': 'model/gltf-binary',
};

export function mimeType(file: string): string {
  return MIME[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export function createStaticHandler(rootDir: string): RequestHandler {
  const root = realpathSync(resolve(rootDir));
  const csp = rendererCsp(root);
  const baseHeaders: Record<string, string> = {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    // The page URL carries the access token: never send it anywhere as a Referer.
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
  const inside = (p: string) => p === root || p.startsWith(root + sep);

  const fail = (res: ServerResponse, status: number, text: string) => {
    res.writeHead(status, { ...baseHeaders, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(`${status} ${text}\n`);
  };

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return fail(res, 405, 'Method Not Allowed');
    }
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    } catch {
      return fail(res, 400, 'Bad Request');
    }
    // Checked on the raw path too: `new URL` already folds `/../` for us, but a `..` that
    // survives decoding (from `%2e%2e` or `..%2f`) is an attack, not a file name.
    if (pathname.includes('\0') || pathname.split(/[\\/]/).includes('..')) return fail(res, 403, 'Forbidden');
    if (pathname.endsWith('/')) pathname += 'index.html';
    const candidate = resolve(root, '.' + pathname);
    if (!inside(candidate)) return fail(res, 403, 'Forbidden');

    let file = candidate;
    let info = await stat(file).catch(() => null);
    // Client-side routes (no extension) get the app shell; missing assets stay 404.
    if (!info && extname(pathname) === '') {
      file = resolve(root, 'index.html');
      info = await stat(file).catch(() => null);
    }
    if (!info || !info.isFile()) return fail(res, 404, 'Not Found');
    const real = await realpath(file).catch(() => null);
    if (!real || !inside(real)) return fail(res, 403, 'Forbidden');

    res.writeHead(200, {
      ...baseHeaders,
      'Content-Type': mimeType(file),
      'Content-Length': String(info.size),
      // Vite fingerprints everything under assets/; the shell must be re-read on every load.
      'Cache-Control': pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    if (req.method === 'HEAD') return void res.end();
    const stream = createReadStream(file);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  }

  return (req, res) => {
    serve(req, res).catch(() => {
      if (!res.headersSent) fail(res, 500, 'Internal Server Error');
      else res.destroy();
    });
  };
}
