/// <reference lib="dom" />
/**
 * One browser-mode session for end-to-end tests: the built host (out/main/web.js) on a random
 * port with its own THICKET_HOME, Debian's Chromium with a fresh profile, one page, page errors
 * collected, and a helper that measures how much of the viewport canvas is drawn.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { HAS_CHROMIUM, launchChromium } from './browser';
import { startWebHostProcess } from './web-host-process';
import { tempDir } from './temp';
import { REPO_ROOT } from './shared-data';
import { connectApi, type ApiSocket } from './api-socket';

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

/** An app session a describe block's hooks open and close; its fields read the live session, so use them in tests and in later hooks. */
export interface LiveAppSession extends Omit<AppSession, 'close'> {
  /** A client of the host's API (only with `{ api: true }`). */
  readonly api: ApiSocket;
}

/**
 * Registers beforeAll/afterAll hooks in the calling describe block that open an app session (and,
 * with `api`, a client of its API) and close them again; returns the session as it is once open.
 */
export function useAppSession(prefix: string, options: { api?: boolean } = {}): LiveAppSession {
  let session: AppSession | undefined;
  let api: ApiSocket | undefined;
  beforeAll(async () => {
    session = await openAppSession(prefix);
    if (options.api) api = await connectApi(session.url);
  });
  afterAll(async () => {
    api?.close();
    await session?.close();
  });
  const open = (): AppSession => {
    if (!session) throw new Error('the app session is not open yet: use it in a test or a hook registered after useAppSession');
    return session;
  };
  return {
    get url() {
      return open().url;
    },
    get page() {
      return open().page;
    },
    get context() {
      return open().context;
    },
    get dir() {
      return open().dir;
    },
    get errors() {
      return open().errors;
    },
    get api() {
      if (!api) throw new Error(options.api ? 'the API client is not connected yet' : 'useAppSession was called without { api: true }');
      return api;
    },
  };
}

/** On the Projects page: create `<dir>/<name>.thicket` and wait until the header names it; returns its path. */
export async function createProjectInUi(page: Page, dir: string, name: string): Promise<string> {
  await page.getByTestId('nav-projects').click();
  const path = join(dir, `${name}.thicket`);
  await page.getByTestId('new-project-path').fill(path);
  await page.getByTestId('create-project').click();
  await expectProjectName(page, name);
  return path;
}

/** Opens the app and creates `<session dir>/<name>.thicket` through the Projects page; returns its path. */
export async function openAppWithNewProject(session: Pick<AppSession, 'page' | 'url' | 'dir'>, name: string): Promise<string> {
  await session.page.goto(session.url);
  return createProjectInUi(session.page, session.dir, name);
}

/** Waits until the header shows the open project's name containing `name`. */
export async function expectProjectName(page: Page, name: string): Promise<void> {
  await expect.poll(() => page.getByTestId('project-name').textContent(), { timeout: 15_000 }).toContain(name);
}

/** Waits until the newest job row (of `kind`, or of any kind when it is null) is done; returns that row. */
export async function waitForJobRow(page: Page, kind: string | null, timeoutMs: number): Promise<Locator> {
  const row = (kind === null ? page.getByTestId('job-row') : page.locator(`[data-testid="job-row"][data-kind="${kind}"]`)).first();
  await expect.poll(() => row.getAttribute('data-state'), { timeout: timeoutMs }).toBe('done');
  return row;
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
