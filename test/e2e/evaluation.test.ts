/// <reference lib="dom" />
/**
 * Evaluation as a person does it in browser mode: a project with the small demo's drives and a
 * physics run along the test drive's poses (set up through the host's API), then on the
 * Evaluation page: the run and its source log are picked by default, "Evaluate" runs the job, and
 * the metrics, the overlaid clouds and the per-packet error chart appear, without console errors.
 * Then the dashboards: the per-class and per-range bar charts, the two clouds side by side with
 * linked cameras (an orbit of the real view turns the simulated one, a zoom of the simulated view
 * zooms the real one), and the range-error colouring with its legend and its diverging colours.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { CAN_RUN_BROWSER, SHOTS, canvasCoverage, expectProjectName, useAppSession } from '../helpers/app-session';

type Hook = { ready: boolean; pointCount: number };
type Orbit = { alpha: number; beta: number; radius: number; target: [number, number, number] };
const orbits = (page: Page) => page.evaluate(() => (window as unknown as { __thicketLinkedViews?: { orbit: () => Orbit[] } }).__thicketLinkedViews?.orbit() ?? null);
const sideReady = (page: Page, side: 'real' | 'sim') => page.locator(`[data-testid="side-${side}"] [data-testid="viewport-canvas"]`).getAttribute('data-ready');

/** Pixels of a canvas that are clearly blue (the scale's short end) and clearly red (its long end). */
function divergingPixels(page: Page, selector: string): Promise<{ blue: number; red: number }> {
  return page.evaluate((sel) => {
    const src = document.querySelector(sel) as HTMLCanvasElement;
    const c = document.createElement('canvas');
    c.width = src.width;
    c.height = src.height;
    const g = c.getContext('2d')!;
    g.drawImage(src, 0, 0);
    const { data } = g.getImageData(0, 0, c.width, c.height);
    let blue = 0, red = 0;
    for (let i = 0; i < data.length; i += 4) {
      const r = data[i]!, gr = data[i + 1]!, b = data[i + 2]!;
      if (b > 120 && b - r > 50 && b - gr > 30) blue++;
      if (r > 120 && r - b > 50 && r - gr > 50) red++;
    }
    return { blue, red };
  }, selector);
}

async function drag(page: Page, selector: string, dx: number, dy: number): Promise<void> {
  const box = (await page.locator(selector).boundingBox())!;
  const x = box.x + box.width / 2, y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let k = 1; k <= 8; k++) await page.mouse.move(x + (dx * k) / 8, y + (dy * k) / 8);
  await page.mouse.up();
}
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

  it('charts the breakdowns, shows the clouds side by side with linked cameras, and colours them by range error', async () => {
    const { page } = session;
    await page.getByTestId('evaluation-metrics').waitFor({ timeout: 15_000 });

    // The per-range chart beside its table (one bar group per bin), the per-class one where the log is labelled.
    const rangeRows = await page.getByTestId('evaluation-by-range').locator('tbody tr').count();
    expect(rangeRows).toBeGreaterThan(0);
    expect(Number(await page.getByTestId('evaluation-chart-range').getAttribute('data-bars'))).toBe(rangeRows);
    await page.getByTestId('evaluation-chart-range').locator('canvas').first().waitFor({ timeout: 15_000 });
    if (await page.getByTestId('evaluation-by-class').count()) {
      expect(Number(await page.getByTestId('evaluation-chart-class').getAttribute('data-bars'))).toBe(await page.getByTestId('evaluation-by-class').locator('tbody tr').count());
    }

    // Side by side: two views, each ready with its cloud.
    await page.getByTestId('evaluation-layout').getByText('Side by side').click();
    await expect.poll(() => sideReady(page, 'real'), { timeout: 60_000 }).toBe('true');
    await expect.poll(() => sideReady(page, 'sim'), { timeout: 60_000 }).toBe('true');
    const before = (await orbits(page))!;
    expect(before).toHaveLength(2);

    // Orbit the real (left) view: the simulated view turns with it.
    await drag(page, '[data-testid="side-real"] [data-testid="viewport-canvas"]', 160, 40);
    await page.waitForTimeout(800); // inertia settles
    const turned = (await orbits(page))!;
    expect(Math.abs(turned[0]!.alpha - before[0]!.alpha)).toBeGreaterThan(0.1);
    expect(turned[1]!.alpha).toBeCloseTo(turned[0]!.alpha, 6);
    expect(turned[1]!.beta).toBeCloseTo(turned[0]!.beta, 6);
    // Zoom the simulated (right) view: the real view follows.
    const simBox = (await page.locator('[data-testid="side-sim"] [data-testid="viewport-canvas"]').boundingBox())!;
    await page.mouse.move(simBox.x + simBox.width / 2, simBox.y + simBox.height / 2);
    for (let k = 0; k < 12; k++) {
      await page.mouse.wheel(0, -400);
      await page.waitForTimeout(40);
    }
    await page.waitForTimeout(800);
    const zoomed = (await orbits(page))!;
    expect(zoomed[1]!.radius).toBeLessThan(0.95 * turned[1]!.radius);
    expect(zoomed[0]!.radius).toBeCloseTo(zoomed[1]!.radius, 6);
    expect(zoomed[0]!.target).toEqual(zoomed[1]!.target);
    await page.screenshot({ path: join(SHOTS, 'e2e-evaluation-side-by-side.png') });
    expect((await canvasCoverage(page)).differing).toBeGreaterThan(0.002);

    // Range-error colouring: the pairs come from the host; a legend in metres with the two miss colours.
    await page.getByTestId('evaluation-colouring').getByText('Range error').click();
    await page.getByTestId('evaluation-error-pairs').waitFor({ timeout: 120_000 });
    await expect.poll(() => sideReady(page, 'real'), { timeout: 60_000 }).toBe('true');
    await expect.poll(() => sideReady(page, 'sim'), { timeout: 60_000 }).toBe('true');
    // One legend for both views.
    const legend = page.locator('[data-testid="evaluation-side-by-side"] [data-testid="color-legend"]');
    expect(await legend.count()).toBe(1);
    expect(await legend.getAttribute('data-mode')).toBe('range-error');
    const legendText = (await legend.textContent()) ?? '';
    expect(legendText).toContain('Range error');
    expect(legendText).toMatch(/-\d+(\.\d+)? m.*\d+(\.\d+)? m/s);
    expect(legendText).toContain('real hit, simulated miss');
    expect(legendText).toContain('simulated hit, real miss');
    // The pairs: every pair with a hit of this small drive (within the point budget).
    expect(await page.getByTestId('evaluation-error-pairs').textContent()).toMatch(/^\s*([\d,]+) of \1 pairs with a hit/);
    await page.waitForTimeout(300);
    // Both ends of the diverging scale are on the canvases (physics noise makes errors of both signs).
    const realPixels = await divergingPixels(page, '[data-testid="side-real"] [data-testid="viewport-canvas"]');
    expect(realPixels.blue).toBeGreaterThan(30);
    expect(realPixels.red).toBeGreaterThan(30);
    await page.screenshot({ path: join(SHOTS, 'e2e-evaluation-range-error.png') });

    // Back to one view, still by range error: one point per pair, the same legend.
    await page.getByTestId('evaluation-layout').getByText('Overlay').click();
    await expect.poll(() => hook(page), { timeout: 60_000 }).toMatchObject({ ready: true });
    expect(await page.getByTestId('color-legend').getAttribute('data-mode')).toBe('range-error');
    const overlayPixels = await divergingPixels(page, '[data-testid="viewport-canvas"]');
    expect(overlayPixels.blue + overlayPixels.red).toBeGreaterThan(60);
    await page.screenshot({ path: join(SHOTS, 'e2e-evaluation-range-error-overlay.png') });
    expect(session.errors).toEqual([]);
  });
});
