/// <reference lib="dom" />
/**
 * What a new user meets in the first hour, in browser mode on the small demo project: the jobs
 * panel is a one-line strip that a new job does not open (the run view's legend and the study's
 * metrics stay in sight), failed jobs can be cleared, a study's progress names the sensor and
 * mount it is at, the log view's class legend and facts use names, the logs table does not
 * repeat its points as hits, alerts are words, inputs have no "Please Input", counts are
 * pluralised, booleans are Yes / No, units show once, and the study report's headers are words.
 * Screenshots go to test-results/e2e-first-hour-*.png.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { CAN_RUN_BROWSER, SHOTS, expectProjectName, useAppSession } from '../helpers/app-session';
import { HAS_SHARED_DATA, dataFile } from '../helpers/shared-data';
import { syntheticKitti } from '../helpers/temp';

type Hook = { ready: boolean; pointCount: number };
const hook = (page: Page) => page.evaluate(() => (window as unknown as { __thicketViewport?: Hook }).__thicketViewport ?? null);
const unfocus = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `e2e-first-hour-${name}.png`) });

async function pick(page: Page, testId: string, label: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.locator('.n-base-select-option', { hasText: new RegExp(`^${label}$`) }).click();
  await unfocus(page);
}

/** Placeholders of every input on the page that shows the UI kit's generic text. */
const kitPlaceholders = (page: Page) =>
  page.evaluate(() => [...document.querySelectorAll('input, textarea, .n-base-selection-placeholder')].map((e) => (e as HTMLInputElement).placeholder ?? e.textContent ?? '').filter((p) => /please/i.test(p)));

/** A facts card's rows as label → value. */
const facts = (page: Page, testId: string) =>
  page.evaluate((id) => {
    const root = document.querySelector(`[data-testid="${id}"]`)!;
    const dts = [...root.querySelectorAll('dt')];
    return Object.fromEntries(dts.map((dt) => [dt.textContent!.trim(), (dt.nextElementSibling as HTMLElement).textContent!.trim()]));
  }, testId);

/** The jobs strip's top edge (px from the top of the window). */
const stripTop = async (page: Page) => (await page.getByTestId('jobs-panel').boundingBox())!.y;

describe.skipIf(!CAN_RUN_BROWSER)('browser mode: the first hour', () => {
  const session = useAppSession('thicket-e2e-first-', { api: true });
  let scene: number;
  let testLog: number;
  let run: number;
  let velodyneLog: number | null = null;

  beforeAll(async () => {
    const { api } = session;
    await api.call('project.create', { path: join(session.dir, 'first-hour.thicket') });
    const demo = await api.waitForJob((await api.call('demo.create', { small: true, seed: 4 })).job.id, 120_000);
    const drives = await api.waitForJob(Number(demo.result!.drivesJob), 120_000);
    const result = drives.result as unknown as { site: { scene: number }; logs: { log: number }[] };
    scene = result.site.scene;
    testLog = result.logs[1]!.log;
    const sim = await api.call('simulate.start', { sceneId: scene, profileId: 'vlp16', mode: 'mesh', seed: 1, trajectory: { kind: 'log', logId: testLog } });
    run = Number((await api.waitForJob(sim.job.id, 120_000)).result!.run);
    if (HAS_SHARED_DATA) {
      const imp = await api.call('logs.importFile', { path: dataFile('rust_lidar_utils/velodyne_vlp16.pcap') });
      velodyneLog = Number((await api.waitForJob(imp.job.id, 60_000)).result!.log);
    }
  }, 300_000);

  it('logs: one points column, the facts say which profile, the class legend names the classes', async () => {
    const { page } = session;
    await page.goto(session.url);
    await expectProjectName(page, 'first-hour');
    // "v0.1.0 · 2 workers", "· 1 worker"
    expect(await page.getByTestId('app-version').textContent()).toMatch(/· (1 worker|([02-9]|\d\d+) workers)$/);

    await page.getByTestId('nav-logs').click();
    await page.getByTestId('log-row').first().waitFor({ timeout: 15_000 });
    const headers = await page.locator('.n-data-table-th').allTextContents();
    expect(headers.map((t) => t.trim())).toContain('Points');
    expect(headers.map((t) => t.trim())).not.toContain('Hits');
    expect(await page.getByTestId('log-misses').first().textContent()).toMatch(/^[\d,]+ \(\d+\.\d %\)$/);
    expect(await kitPlaceholders(page)).toEqual([]);
    await shot(page, 'logs');

    await page.evaluate((id) => (window.location.hash = `#/logs/${id}`), testLog);
    await page.getByTestId('log-view').waitFor({ timeout: 15_000 });
    await expect.poll(() => hook(page), { timeout: 60_000 }).toMatchObject({ ready: true });
    await pick(page, 'color-mode', 'Class');
    await expect.poll(() => page.getByTestId('color-legend').getAttribute('data-mode'), { timeout: 5_000 }).toBe('class');
    const legend = (await page.getByTestId('color-legend').textContent())!;
    expect(legend).not.toMatch(/class \d/);
    expect(legend).toContain('ground');
    await page.waitForTimeout(300);
    await shot(page, 'log-view');

    if (velodyneLog !== null) {
      await page.evaluate((id) => (window.location.hash = `#/logs/${id}`), velodyneLog);
      await expect.poll(async () => (await facts(page, 'log-view'))['Sensor'] ?? '', { timeout: 15_000 }).toContain('VLP-16');
      const f = await facts(page, 'log-view');
      expect(f['Sensor profile']).not.toBe('—');
      expect(f['Sensor profile']!.length).toBeGreaterThan(1);
      expect(f['Hits']).toBeUndefined(); // equal to the points: shown once
      await expect.poll(() => hook(page), { timeout: 60_000 }).toMatchObject({ ready: true });
      await page.waitForTimeout(300);
      await shot(page, 'velodyne-log');
    }
    expect(session.errors).toEqual([]);
  });

  it('the run view keeps its legend above the jobs strip', async () => {
    const { page } = session;
    await page.evaluate((id) => (window.location.hash = `#/runs/${id}`), run);
    await page.getByTestId('run-view').waitFor({ timeout: 15_000 });
    await expect.poll(() => hook(page), { timeout: 60_000 }).toMatchObject({ ready: true });
    await pick(page, 'color-mode', 'Class');
    const box = (await page.getByTestId('color-legend').boundingBox())!;
    expect(await page.getByTestId('jobs-panel').getAttribute('data-expanded')).toBe('false');
    expect(box.y + box.height).toBeLessThanOrEqual(await stripTop(page));
    expect((await page.getByTestId('jobs-panel').boundingBox())!.height).toBeLessThanOrEqual(32); // one line
    await page.waitForTimeout(300);
    await shot(page, 'run-view');
  });

  it('a study reports each sensor and mount as it goes; its metrics stay in sight; the report has words for headers', async () => {
    const { page } = session;
    await page.getByTestId('nav-studies').click();
    await page.getByTestId('study-new').click();
    await page.getByTestId('study-submit').waitFor();
    expect(await kitPlaceholders(page)).toEqual([]);
    await shot(page, 'new-study');
    await page.keyboard.press('Escape');
    // The form itself is covered by studies.test.ts; here: 2 sensors × 4 mounts, started through the API.
    const sensors = ['lms291-180-1', 'vlp16'].flatMap((profileId) => [1.5, 2.5].flatMap((height) => [0, 5].map((pitchDeg) => ({ profileId, mount: { height, pitchDeg } }))));
    await session.api.call('study.start', { definition: { sceneId: scene, seconds: 1.5, sensors } });

    // While it runs: the strip, closed, names the run it is at.
    const strip = page.getByTestId('jobs-strip-job');
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          const t = (await strip.getAttribute('title')) ?? '';
          if ((await strip.getAttribute('data-state')) === 'running' && t) seen.add(t);
          return [...seen].some((m) => /^Run [2-8] of 8 · (lms291-180-1|vlp16) at [\d.]+ m, pitch [\d.]+°: .* — [1-7] of 8 runs done$/.test(m));
        },
        { timeout: 120_000, interval: 100 },
      )
      .toBe(true);
    expect(await page.getByTestId('jobs-panel').getAttribute('data-expanded')).toBe('false');
    await shot(page, 'jobs-strip');
    const job = page.locator('[data-testid="job-row"][data-kind="study"]').first();
    await expect.poll(() => job.getAttribute('data-state'), { timeout: 180_000 }).toBe('done');
    for (const m of seen) expect(m).not.toContain('batches');

    const row = page.getByTestId('study-row').first();
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 15_000 }).toBe('done');
    await row.click();
    await page.getByTestId('study-view').waitFor({ timeout: 15_000 });
    const metrics = page.getByTestId('study-metrics-row').first();
    await metrics.waitFor({ timeout: 15_000 });
    await metrics.scrollIntoViewIfNeeded();
    const box = (await metrics.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(await stripTop(page));
    await page.waitForTimeout(500);
    await shot(page, 'study-view');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('study-report').click()]);
    const html = readFileSync((await download.path())!, 'utf8');
    const head = /<table><tr>(.*?)<\/tr>/.exec(html)![1]!.match(/<th>(.*?)<\/th>/g)!.map((th) => th.slice(4, -5));
    expect(head).toContain('Cells observed');
    expect(head).toContain('Time to goal (s)');
    for (const h of head) expect(h).not.toMatch(/[a-z][A-Z]/); // no camelCase field names
    expect(session.errors).toEqual([]);
  });

  it('alerts are words; failed jobs can be cleared; scene facts have Yes / No and units once', async () => {
    const { page } = session;
    await page.getByTestId('nav-projects').click();
    expect(await kitPlaceholders(page)).toEqual([]);
    await page.getByTestId('new-project-path').fill(join(session.dir, 'notes.txt'));
    await page.getByTestId('create-project').click();
    const alert = page.getByTestId('error-alert').first();
    await expect.poll(() => alert.textContent(), { timeout: 10_000 }).toContain('.thicket');
    const text = (await alert.textContent())!;
    expect(text).not.toMatch(/\[[a-z_]+\]/);
    expect(text).not.toContain('project.create');
    expect(await page.getByTestId('error-kind').textContent()).toBe('The request was not valid');
    await shot(page, 'alert');

    // A failed import: the strip counts it, "Clear failed" removes it.
    await page.getByTestId('nav-logs').click();
    const bad = join(session.dir, 'cut.bin');
    writeFileSync(bad, syntheticKitti(1000).subarray(0, 11));
    await page.getByTestId('import-file-input').setInputFiles(bad);
    await expect.poll(() => page.getByTestId('jobs-summary').textContent(), { timeout: 30_000 }).toContain('1 failed');
    await shot(page, 'failed-job');
    await page.getByTestId('jobs-clear-failed').click();
    await expect.poll(() => page.locator('[data-testid="job-row"][data-state="failed"]').count(), { timeout: 10_000 }).toBe(0);
    expect(await page.getByTestId('jobs-summary').textContent()).not.toContain('failed');

    for (const nav of ['nav-primitives', 'nav-sensors', 'nav-evaluation']) {
      await page.getByTestId(nav).click();
      await page.waitForTimeout(500);
      expect(await kitPlaceholders(page), nav).toEqual([]);
    }
    await page.getByTestId('nav-scenes').click();
    await page.getByTestId('scene-row').first().waitFor({ timeout: 15_000 });
    await page.locator(`[data-testid="scene-row"]`).first().click();
    await page.getByTestId('scene-facts').waitFor({ timeout: 15_000 });
    const f = await facts(page, 'scene-facts');
    for (const [k, v] of Object.entries(f)) {
      expect(v, k).not.toMatch(/^(true|false)$/);
      expect(k).not.toMatch(/ m$/); // "Length m 40.00 m": the unit goes with the value
    }
    const headlines = await page.getByTestId('scene-row').allTextContents();
    for (const t of headlines) expect(t).not.toMatch(/(^|\D)1 (trees|instances|objects|primitives|stems|rods)\b/);
    expect(await page.locator('.page-head, .scenes-page').first().textContent()).toContain('1 scene · 1 run in');
    await shot(page, 'scene');
    await page.getByTestId('simulate-open').click();
    await page.getByTestId('simulate-submit').waitFor();
    expect(await kitPlaceholders(page)).toEqual([]);
    await shot(page, 'simulate');
    expect(session.errors.filter((e) => !/notes\.txt|\.thicket|400|invalid/i.test(e))).toEqual([]);
  });
});
