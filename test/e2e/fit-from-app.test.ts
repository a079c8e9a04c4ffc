/// <reference lib="dom" />
/**
 * Fitting a model from the app, as a user does: a drive log of the small demo → *Fit model…* →
 * change one parameter of θ → *Fit*; the drawer follows tuning-less fit → replay to the stored
 * model's counts; *Primitives* → *Fitted models…* shows its report with the changed θ; *Extract
 * from model…* now has a model to offer. Screenshots: test-results/e2e-fit-*.png.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { CAN_RUN_BROWSER, SHOTS, expectProjectName, useAppSession } from '../helpers/app-session';

const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `e2e-fit-${name}.png`) });

describe.skipIf(!CAN_RUN_BROWSER)('browser mode: fit a model from the app', () => {
  const session = useAppSession('thicket-e2e-fit-', { api: true });
  let log = 0;

  beforeAll(async () => {
    const { api } = session;
    await api.call('project.create', { path: join(session.dir, 'fit.thicket') });
    const demo = await api.waitForJob((await api.call('demo.create', { small: true, seed: 4 })).job.id, 120_000);
    const drives = await api.waitForJob(Number(demo.result!.drivesJob), 120_000);
    log = (drives.result as unknown as { logs: { log: number }[] }).logs[0]!.log;
  }, 300_000);

  it('fits from the log view and shows the model and its report', async () => {
    const { page } = session;
    await page.goto(session.url);
    await expectProjectName(page, 'fit');
    await page.evaluate((id) => (window.location.hash = `#/logs/${id}`), log);
    await page.getByTestId('log-fit').click();
    await page.getByTestId('fit-param-clustersPerPoint').fill('0.05');
    await page.getByTestId('fit-param-clustersPerPoint').press('Tab');
    await shot(page, 'drawer');
    await page.getByTestId('fit-submit').click();
    await page.getByTestId('fit-result').waitFor({ timeout: 300_000 });
    const result = (await page.getByTestId('fit-result').textContent())!;
    expect(result).toMatch(/Model #\d+: [\d,]+ ground triangles, [\d,]+ ellipsoids, [\d,]+ voxels/);
    await page.getByTestId('fit-result').scrollIntoViewIfNeeded();
    await shot(page, 'result');
    await page.keyboard.press('Escape');

    await page.getByTestId('nav-primitives').click();
    await page.getByTestId('models-open').click();
    const card = page.getByTestId('model-card').first();
    await card.waitFor({ timeout: 15_000 });
    expect(await card.getByTestId('model-theta').textContent()).toContain('clustersPerPoint 0.05');
    await page.waitForTimeout(500); // the drawer's slide-in
    await shot(page, 'models');
    await page.keyboard.press('Escape');
    await page.getByTestId('extract-open').click();
    await expect.poll(() => page.getByTestId('extract-fit').count()).toBe(0); // a model is there to pick
    expect(session.errors).toEqual([]);
  }, 600_000);
});
