/// <reference lib="dom" />
/**
 * Simulation as a person does it in browser mode: generate a small off-road scene on the Scenes
 * page, simulate a VLP-16 (defaults: the scene's suggested start), watch the job finish, open the
 * run, and check the viewport draws coloured points.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { CAN_RUN_BROWSER, SHOTS, canvasCoverage, openAppSession, type AppSession } from '../helpers/app-session';

describe.skipIf(!CAN_RUN_BROWSER)('browser mode: generate a scene and simulate in it', () => {
  let session: AppSession;
  let page: Page;
  let tmp: { dir: string };
  let host: { url: string };
  let errors: string[];

  beforeAll(async () => {
    session = await openAppSession('thicket-e2e-sim-');
    ({ page, errors } = session);
    tmp = { dir: session.dir };
    host = { url: session.url };
  });
  afterAll(async () => {
    await session?.close();
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
    const lit = (await canvasCoverage(page)).differing;
    expect(lit).toBeGreaterThan(0.002);
    expect(errors).toEqual([]);
  });
});
