/**
 * The screenshots of docs/user-guide.md, taken of the real app in browser mode:
 *
 *   npm run build && npx tsx scripts/screenshots.ts [--out docs/images] [--data ../shared/data] [--keep]
 *
 * 1. builds a small demo project with the CLI (`thicket demo --small`: the reference site, two
 *    drives, the fitted models, primitives, composed scenes, runs and evaluations), imports a
 *    real KITTI scan when the recordings folder is there, and runs two short sensor studies (the
 *    four built-in sensors in open loop, and a VLP-16 mount sweep in closed loop);
 * 2. starts the built browser-mode host (out/main/web.js) on that project with its own home folder;
 * 3. drives Debian's Chromium (playwright-core; `apt-get install -y chromium fonts-dejavu-core`)
 *    to each page at 1280 × 800 and writes one PNG per page.
 *
 * Everything runs in a temporary folder, deleted at the end unless --keep is given.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const OUT = resolve(ROOT, option('--out', 'docs/images'));
const DATA = resolve(ROOT, option('--data', '../shared/data'));
const KEEP = args.includes('--keep');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const WIDTH = 1280;
const HEIGHT = 800;

function log(message: string): void {
  process.stderr.write(`[screenshots] ${message}\n`);
}

/** Runs the built CLI (bin/thicket.js) and returns its one JSON object. */
function cli(...argv: string[]): Record<string, unknown> {
  log(`thicket ${argv.join(' ')}`);
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/thicket.js'), ...argv, '--json', '--quiet'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`thicket ${argv.join(' ')} failed (${r.status}):\n${r.stderr}\n${r.stdout}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, unknown>;
}

/** Starts out/main/web.js on the project; resolves with the tokened URL. */
function startHost(project: string, home: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(ROOT, 'out/main/web.js'), '--port', '0', '--project', project, '--home', home], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolveUrl, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the web host printed no URL in 30 s:\n${stderr}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /THICKET_URL=(\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveUrl({ url: m[1]!, child });
      }
    });
    child.on('exit', (code) => reject(new Error(`the web host exited with ${code}:\n${stderr}`)));
  });
}

/** A small mount sweep (two heights × two pitches) for the second study. */
function writeMounts(dir: string): string {
  const path = join(dir, 'mounts.json');
  writeFileSync(path, JSON.stringify({ height: [1.5, 2], pitchDeg: [0, 5] }));
  return path;
}

async function viewportReady(page: Page, timeout = 60_000): Promise<void> {
  await page.waitForFunction(
    () => {
      const v = (window as unknown as { __thicketViewport?: { ready: boolean; pointCount: number } }).__thicketViewport;
      return !!v && v.ready && v.pointCount > 0;
    },
    undefined,
    { timeout },
  );
}

/** Opens or folds the jobs panel at the bottom of every page (a no-op if the page has none). */
async function jobsPanel(page: Page, expanded: boolean): Promise<void> {
  const panel = page.getByTestId('jobs-panel');
  if ((await panel.count()) === 0) return;
  if ((await panel.getAttribute('data-expanded')) !== String(expanded)) await panel.locator('button[aria-expanded]').first().click();
}

async function shot(page: Page, name: string): Promise<void> {
  await page.mouse.move(WIDTH - 2, HEIGHT / 2); // no hover tooltips
  await page.waitForTimeout(800); // let charts and the viewport finish their first frames
  const path = join(OUT, `${name}.png`);
  await page.screenshot({ path });
  // Palette-quantised where pngquant is installed (apt-get install pngquant): a third of the size,
  // so the docs' images stay small in the repository.
  spawnSync('pngquant', ['--quality=70-90', '--speed', '1', '--force', '--output', path, path], { stdio: 'ignore' });
  log(`${path} (${Math.round(statSync(path).size / 1024)} KB)`);
}

/** Navigates by hash (the router's history), waits for the page's root element, and opens the
 * jobs panel only where the screenshot is meant to show it. */
async function go(page: Page, url: string, hash: string, testId: string, jobs = false): Promise<void> {
  await page.goto(`${url.replace(/#.*$/, '')}#${hash}`);
  await page.getByTestId(testId).first().waitFor({ timeout: 30_000 });
  await jobsPanel(page, jobs);
}

async function main(): Promise<void> {
  for (const needed of ['out/main/web.js', 'out/main/cli.js', 'out/renderer/index.html']) {
    if (!existsSync(join(ROOT, needed))) throw new Error(`${needed} is missing: run \`npm run build\` first`);
  }
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is absent: apt-get install -y chromium fonts-dejavu-core`);
  mkdirSync(OUT, { recursive: true });
  const tmp = mkdtempSync(join(tmpdir(), 'thicket-shots-'));
  const project = join(tmp, 'Demo.thicket');
  let host: ChildProcess | null = null;
  let context: BrowserContext | null = null;
  try {
    // 1. Content: the small demo (site, drives, Table 4.3 experiment), a real scan, a study.
    cli('demo', '--project', project, '--small');
    const kitti = join(DATA, 'overlapnet_kitti/000000.bin');
    if (existsSync(kitti)) cli('import', kitti, '--project', project, '--format', 'kitti-bin', '--name', 'KITTI scan 000000');
    else log(`${kitti} is absent: no real scan in the Drive logs page`);
    const study = cli('study', '--project', project, '--scene', '1', '--profiles', 'lms291,vlp16,hdl32e,hdl64e', '--loop', 'open', '--seconds', '4');
    cli('study', '--project', project, '--scene', '1', '--profiles', 'vlp16', '--mounts', writeMounts(tmp), '--loop', 'closed', '--seconds', '4');

    // 2. The host and the browser.
    const started = await startHost(project, join(tmp, 'home'));
    host = started.child;
    context = await chromium.launchPersistentContext(join(tmp, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: WIDTH, height: HEIGHT },
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const page = context.pages()[0] ?? (await context.newPage());
    // Start every page with the jobs panel folded, so viewports get their final size before
    // their first frame (they redraw only when the camera moves); go() opens it where wanted.
    await page.addInitScript(() => localStorage.setItem('thicket.jobsPanel', 'collapsed'));
    page.on('pageerror', (e) => log(`page error: ${String(e)}`));
    await page.goto(started.url);
    await page.getByTestId('project-name').waitFor({ timeout: 30_000 });

    // 3. One screenshot per page.
    await go(page, started.url, '/projects', 'create-project', true);
    await shot(page, 'projects');

    await go(page, started.url, '/logs', 'log-row', true);
    await shot(page, 'drive-logs');

    await go(page, started.url, '/logs/1', 'log-view');
    await viewportReady(page);
    await shot(page, 'log-view');

    await go(page, started.url, '/sensors', 'profile-row');
    await page.getByTestId('profile-row').nth(2).click();
    await page.getByTestId('profile-detail').waitFor({ timeout: 15_000 });
    await shot(page, 'sensors');

    await go(page, started.url, '/scenes', 'scene-row');
    await page.getByTestId('scene-row').first().click();
    await page.getByTestId('scene-facts').waitFor({ timeout: 15_000 });
    await shot(page, 'scenes');

    await go(page, started.url, '/runs/5', 'run-view');
    await viewportReady(page);
    await shot(page, 'run-view');

    await go(page, started.url, '/primitives', 'primitive-row');
    await page.locator('[data-testid="primitive-row"][data-class="13"]').or(page.getByTestId('primitive-row')).first().click();
    await page.getByTestId('primitive-facts').waitFor({ timeout: 15_000 });
    await page.waitForTimeout(1500);
    await shot(page, 'primitives');

    await go(page, started.url, '/evaluation', 'evaluation-view');
    // Evaluation 5: the test drive re-simulated by the hybrid simulator in training primitives.
    await page.locator('[data-testid="evaluation-row"][data-evaluation-id="5"]').click();
    await page.getByTestId('evaluation-metrics').waitFor({ timeout: 15_000 });
    await viewportReady(page).catch(() => log('the evaluation viewport did not report ready'));
    await shot(page, 'evaluation');
    // The same evaluation side by side, coloured by each paired ray's range error.
    await page.getByTestId('evaluation-layout').getByText('Side by side').click();
    await page.getByTestId('evaluation-colouring').getByText('Range error').click();
    await page.getByTestId('evaluation-error-pairs').waitFor({ timeout: 120_000 });
    await page
      .waitForFunction(() => document.querySelectorAll('[data-testid="evaluation-side-by-side"] [data-testid="viewport-canvas"][data-ready="true"]').length === 2, undefined, { timeout: 60_000 })
      .catch(() => log('the side-by-side views did not report ready'));
    await shot(page, 'evaluation-range-error');

    await go(page, started.url, '/studies', 'study-row');
    await shot(page, 'studies');

    await go(page, started.url, `/studies/${String(study.study)}`, 'study-panels');
    await page.waitForTimeout(1500);
    await page.keyboard.press('End');
    await shot(page, 'study');
  } finally {
    await context?.close();
    host?.kill('SIGTERM');
    if (KEEP) log(`kept ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`[screenshots] ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
