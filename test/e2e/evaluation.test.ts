/// <reference lib="dom" />
/**
 * Evaluation as a person does it in browser mode: a project with the small demo's drives and a
 * physics run along the test drive's poses (set up through the host's API), then on the
 * Evaluation page: the run and its source log are picked by default, "Evaluate" runs the job, and
 * the metrics, the overlaid clouds and the per-packet error chart appear, without console errors.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { CAN_RUN_BROWSER, SHOTS, canvasCoverage, expectProjectName, useAppSession } from '../helpers/app-session';

type Hook = { ready: boolean; pointCount: number };
const hook = (page: Page) => page.evaluate(() => (window as unknown as { __thicketViewport?: Hook }).__thicketViewport ?? null);
const metric = async (page: Page, key: string) => (await page.getByTestId(`metric-${key}`).locator('.value').textContent())?.trim() ?? '';

describe.skipIf(!CAN_RUN_BROWSER)('browser mode: evaluating a run against a drive log', () => {
  const session = useAppSession('thicket-e2e-eval-', { api: true });
  let run: { run: number; packets: number; hits: number };
  let realHits: number;

  beforeAll(async () => {
    const { api } = session;
    await api.call('project.create', { path: join(session.dir, 'evaluate.thicket') });
    const demo = await api.waitForJob((await api.call('demo.create', { small: true, seed: 4 })).job.id, 120_000);
    const drives = await api.waitForJob(Number(demo.result!.drivesJob), 120_000);
    const result = drives.result as unknown as { site: { scene: number }; logs: { log: number; hits: number }[] };
    const test = result.logs[1]!;
    realHits = test.hits;
    const sim = await api.call('simulate.start', { sceneId: result.site.scene, profileId: 'hdl32e', mode: 'physics', seed: 7, trajectory: { kind: 'log', logId: test.log } });
    run = (await api.waitForJob(sim.job.id, 120_000)).result as unknown as typeof run;
  }, 300_000);

  it('runs an evaluation from the page and shows the metrics, the overlay and the chart', async () => {
    const { page } = session;
    await page.goto(session.url);
    await expectProjectName(page, 'evaluate');
    await page.getByTestId('nav-evaluation').click();
    await page.getByTestId('evaluation-view').waitFor({ timeout: 15_000 });
    // Defaults: the newest run, and the log it re-simulated.
    await expect.poll(() => page.getByTestId('evaluation-run').textContent(), { timeout: 15_000 }).toContain(`#${run.run}`);
    await expect.poll(() => page.getByTestId('evaluation-log').textContent(), { timeout: 15_000 }).toContain('test drive');

    await page.getByTestId('evaluation-start').click();
    await expect.poll(() => page.getByTestId('evaluation-job').getAttribute('data-state'), { timeout: 120_000 }).toBe('done');
    const job = page.locator('[data-testid="job-row"][data-kind="evaluate"]').first();
    await expect.poll(() => job.getAttribute('data-state'), { timeout: 15_000 }).toBe('done');

    // The new evaluation is listed and selected: its figures.
    await page.getByTestId('evaluation-row').first().waitFor({ timeout: 15_000 });
    await page.getByTestId('evaluation-metrics').waitFor({ timeout: 15_000 });
    expect(Number((await metric(page, 'packets')).replace(/,/g, ''))).toBe(run.packets);
    // A physics run along the log's own poses in the same scene: near-identical hits.
    expect(Number(await metric(page, 'f1'))).toBeGreaterThan(0.95);
    expect(Number(await metric(page, 'precision'))).toBeGreaterThan(0.95);
    expect(await metric(page, 'packetError')).toMatch(/^\d+(\.\d)? cm$/);
    expect(await metric(page, 'pointCloudError')).toMatch(/^\d+(\.\d)? cm$/);

    // The chart has one point per paired packet and draws on its canvas.
    await expect.poll(async () => Number(await page.getByTestId('evaluation-chart').getAttribute('data-points')), { timeout: 15_000 }).toBe(run.packets);
    await page.getByTestId('evaluation-chart').locator('canvas').first().waitFor({ timeout: 15_000 });

    // The overlay: both clouds in one viewport (the demo's small drives fit the default budget whole).
    await expect.poll(() => hook(page), { timeout: 60_000 }).toMatchObject({ ready: true });
    const points = (await hook(page))!.pointCount;
    expect(points).toBeGreaterThan(0.9 * (realHits + run.hits));
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SHOTS, 'e2e-evaluation.png') });
    expect((await canvasCoverage(page)).differing).toBeGreaterThan(0.002);
    expect(session.errors).toEqual([]);
  });
});
