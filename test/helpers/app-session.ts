/// <reference lib="dom" />
/**
 * One browser-mode session for end-to-end tests: the built host (out/main/web.js) on a random
 * port with its own THICKET_HOME, Debian's Chromium with a fresh profile, one page, page errors
 * collected, and a helper that measures how much of the viewport canvas is drawn.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { HAS_CHROMIUM, launchChromium } from './browser';
import { startWebHostProcess } from './web-host-process';
import { tempDir } from './temp';
import { REPO_ROOT } from './shared-data';

export const BUILT = existsSync(join(REPO_ROOT, 'out/main/web.js')) && existsSync(join(REPO_ROOT, 'out/renderer/index.html'));
if (!BUILT) console.warn('[thicket tests] out/ is not built (npm test builds it): browser tests are skipped');
export const CAN_RUN_BROWSER = HAS_CHROMIUM && BUILT;
export const SHOTS = join(REPO_ROOT, 'test-results');

export interface AppSession {
  url: string;
  page: Page;
  context: BrowserContext;
  /** A temporary folder for this session's files (projects, generated inputs). */
  dir: string;
  /** Console errors and uncaught page errors seen so far. */
  errors: string[];
  close(): Promise<void>;
}

export async function openAppSession(prefix: string): Promise<AppSession> {
  const tmp = tempDir(prefix);
  const host = await startWebHostProcess(join(tmp.dir, 'home'));
  const context = await launchChromium(join(tmp.dir, 'profile'));
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !/favicon/i.test(m.text())) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  mkdirSync(SHOTS, { recursive: true });
  return {
    url: host.url,
    page,
    context,
    dir: tmp.dir,
    errors,
    async close() {
      await context.close();
      await host.stop();
      tmp.cleanup();
    },
  };
}

/** Fraction of the viewport canvas's pixels that differ from its background (corner) colour, and the number of distinct colours. */
export function canvasCoverage(page: Page, testId = 'viewport-canvas'): Promise<{ differing: number; colours: number }> {
  return page.evaluate((id) => {
    const src = document.querySelector(`[data-testid="${id}"]`) as HTMLCanvasElement;
    const c = document.createElement('canvas');
    c.width = src.width;
    c.height = src.height;
    const g = c.getContext('2d')!;
    g.drawImage(src, 0, 0);
    const { data } = g.getImageData(0, 0, c.width, c.height);
    let differing = 0;
    const colours = new Set<number>();
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i]! - data[0]!) + Math.abs(data[i + 1]! - data[1]!) + Math.abs(data[i + 2]! - data[2]!) > 30) differing++;
      colours.add((data[i]! >> 4) * 256 + (data[i + 1]! >> 4) * 16 + (data[i + 2]! >> 4));
    }
    return { differing: differing / (data.length / 4), colours: colours.size };
  }, testId);
}
