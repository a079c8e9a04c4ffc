/**
 * The Content-Security-Policy both shells send as a header. It must match the renderer's
 * <meta> tag: a browser enforces every policy it is given, so two different policies would
 * silently intersect. We therefore read the policy from the built index.html and fall back to
 * this default only where the page carries none.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const DEFAULT_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "connect-src 'self' ws://127.0.0.1:* ws://localhost:*; worker-src 'self' blob:";

const META = /<meta\s[^>]*http-equiv\s*=\s*["']Content-Security-Policy["'][^>]*>/i;
const CONTENT = /\scontent\s*=\s*(?:"([^"]*)"|'([^']*)')/i;

/** The policy in an HTML document's CSP meta tag, or null. */
export function cspFromHtml(html: string): string | null {
  const tag = META.exec(html)?.[0];
  if (!tag) return null;
  const m = CONTENT.exec(tag);
  const value = (m?.[1] ?? m?.[2] ?? '').replace(/&#39;|&apos;/g, "'").replace(/&quot;/g, '"').replace(/\s+/g, ' ').trim();
  return value || null;
}

/** The policy of `<rendererDir>/index.html`, or DEFAULT_CSP when it is missing or has none. */
export function rendererCsp(rendererDir: string): string {
  try {
    return cspFromHtml(readFileSync(join(rendererDir, 'index.html'), 'utf8')) ?? DEFAULT_CSP;
  } catch {
    return DEFAULT_CSP;
  }
}
