/// <reference lib="dom" />
/**
 * Simulation as a person does it in browser mode: generate a small off-road scene on the Scenes
 * page, simulate a VLP-16 (defaults: the scene's suggested start), watch the job finish, open the
 * run, and check the viewport draws coloured points.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { CAN_RUN_BROWSER, SHOTS, canvasCoverage, openAppWithNewProject, useAppSession, waitForJobRow } from '../helpers/app-session';

describe.skipIf(!CAN_RUN_BROWSER)('browser mode: generate a scene and simulate in it', () => {
  const session = useAppSession('thicket-e2e-sim-');

  it('generates, simulates and shows the run', async () => {
    const { page } = session;
    await openAppWithNewProject(session, 'sim');

    await page.getByTestId('nav-scenes').click();
    await page.getByTestId('scene-generate').click();
    // Keep the scene small so the test is quick: 40 m, 150k triangles.
    await page.getByTestId('scene-param-sizeM').fill('40');
    await page.getByTestId('scene-param-targetTriangles').fill('150000');
    await page.getByTestId('scene-generate-submit').click();
    await waitForJobRow(page, 'generate-scene', 60_000);
    await page.getByTestId('scene-row').first().waitFor({ timeout: 15_000 });

    await page.getByTestId('scene-row').first().click();
    await page.getByTestId('simulate-open').click();
    await page.getByTestId('simulate-submit').waitFor();
    await expect.poll(() => page.getByTestId('simulate-submit').isEnabled(), { timeout: 15_000 }).toBe(true);
    await page.getByTestId('simulate-submit').click();
    await waitForJobRow(page, 'simulate', 120_000);

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
    expect(session.errors).toEqual([]);
  });
});
