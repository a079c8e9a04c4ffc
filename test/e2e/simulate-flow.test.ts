/// <reference lib="dom" />
/**
 * Simulation as a person does it in browser mode: generate a small off-road scene on the Scenes
 * page, simulate a VLP-16 (defaults: the scene's suggested start), watch the job finish, open the
 * run, and check the viewport draws coloured points.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { HAS_CHROMIUM, launchChromium } from '../helpers/browser';
import { startWebHostProcess } from '../helpers/web-host-process';
import { tempDir } from '../helpers/temp';
import { REPO_ROOT } from '../helpers/shared-data';

const BUILT = existsSync(join(REPO_ROOT, 'out/main/web.js')) && existsSync(join(REPO_ROOT, 'out/renderer/index.html'));
const SHOTS = join(REPO_ROOT, 'test-results');

describe.skipIf(!HAS_CHROMIUM || !BUILT)('browser mode: generate a scene and simulate in it', () => {
  const tmp = tempDir('thicket-e2e-sim-');
  let host: Awaited<ReturnType<typeof startWebHostProcess>>;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    host = await startWebHostProcess(join(tmp.dir, 'home'));
    context = await launchChromium(join(tmp.dir, 'profile'));
    page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => errors.push(String(e)));
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await context?.close();
    await host?.stop();
    tmp.cleanup();
  });

  it('generates, simulates and shows the run', async () => {
    await page.goto(host.url);
    await page.getByTestId('nav-projects').click();
    await page.getByTestId('new-project-path').fill(join(tmp.dir, 'sim.thicket'));
    await page.getByTestId('create-project').click();
    await expect.poll(() => page.getByTestId('project-name').textContent(), { timeout: 15_000 }).toContain('sim');

    await page.getByTestId('nav-scenes').click();
    await page.getByTestId('scene-generate').click();
    // Keep the scene small so the test is quick: 40 m, 150k triangles.
    await page.getByTestId('scene-param-sizeM').fill('40');
    await page.getByTestId('scene-param-targetTriangles').fill('150000');
    await page.getByTestId('scene-generate-submit').click();
    const gen = page.locator('[data-testid="job-row"][data-kind="generate-scene"]').first();
    await expect.poll(() => gen.getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
    await page.getByTestId('scene-row').first().waitFor({ timeout: 15_000 });

    await page.getByTestId('scene-row').first().click();
    await page.getByTestId('simulate-open').click();
    await page.getByTestId('simulate-submit').waitFor();
    await expect.poll(() => page.getByTestId('simulate-submit').isEnabled(), { timeout: 15_000 }).toBe(true);
    await page.getByTestId('simulate-submit').click();
    const sim = page.locator('[data-testid="job-row"][data-kind="simulate"]').first();
    await expect.poll(() => sim.getAttribute('data-state'), { timeout: 120_000 }).toBe('done');

    await page.getByTestId('run-row').first().waitFor({ timeout: 15_000 });
    await page.getByTestId('run-row').first().click();
    await page.getByTestId('run-view').waitFor({ timeout: 15_000 });
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __thicketViewport?: { ready: boolean; pointCount: number } }).__thicketViewport), { timeout: 60_000 })
      .toMatchObject({ ready: true });
    const points = await page.evaluate(() => (window as unknown as { __thicketViewport: { pointCount: number } }).__thicketViewport.pointCount);
    expect(points).toBeGreaterThan(1_000);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SHOTS, 'e2e-run-view.png') });
    const lit = await page.evaluate(() => {
      const src = document.querySelector('[data-testid="viewport-canvas"]') as HTMLCanvasElement;
      const c = document.createElement('canvas');
      c.width = src.width;
      c.height = src.height;
      const g = c.getContext('2d')!;
      g.drawImage(src, 0, 0);
      const { data } = g.getImageData(0, 0, c.width, c.height);
      let differing = 0;
      for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i]! - data[0]!) + Math.abs(data[i + 1]! - data[1]!) + Math.abs(data[i + 2]! - data[2]!) > 30) differing++;
      return differing / (data.length / 4);
    });
    expect(lit).toBeGreaterThan(0.002);
    expect(errors).toEqual([]);
  });
});
