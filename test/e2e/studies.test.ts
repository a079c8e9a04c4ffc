/// <reference lib="dom" />
/**
 * The Studies pages in browser mode. A small off-road scene (40 m, its trail 36 m long) is set up
 * through the API; then, as a person would: the empty list says what to do, the "New study" form
 * starts an LMS-291 vs VLP-16 study of 1.5 simulated seconds with a 2 × 2 mount sweep (8 runs), the
 * job finishes, the list shows the study, the study page opens with one panel per sensor whose
 * costmaps are drawn and match the host's `studies.costmap` at the panels' time, the keyboard
 * moves all panels' clock (vehicle and map change), the metrics table shows the API's numbers,
 * a sweep heatmap cell opens its run in a third panel, the HTML report downloads, and the study
 * is deleted with a confirmation.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { StudyData } from '../../src-main/api/contract';
import { costFingerprint } from '../../src-renderer/components/studies/costmap-replay';
import { METRICS } from '../../src-renderer/components/studies/study-format';
import { CAN_RUN_BROWSER, SHOTS, expectProjectName, useAppSession } from '../helpers/app-session';

/** Keys go to the page, not to whichever control was clicked last. */
const unfocus = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

/** Per panel: its seq, frames, time, map fingerprint and vehicle, and a hash and coverage of its canvas pixels. */
function panels(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-testid="study-panel"]')].map((el) => {
      const src = el.querySelector<HTMLCanvasElement>('[data-testid="study-costmap-canvas"]')!;
      const c = document.createElement('canvas');
      c.width = src.width;
      c.height = src.height;
      const g = c.getContext('2d')!;
      let hash = 2166136261, lit = 0;
      if (c.width && c.height) {
        g.drawImage(src, 0, 0);
        const { data } = g.getImageData(0, 0, c.width, c.height);
        for (let i = 0; i < data.length; i += 4) {
          // anything not the panel's background (#0b0d10) or an unknown cell (#1c1c22)
          const bg = Math.abs(data[i]! - 11) + Math.abs(data[i + 1]! - 13) + Math.abs(data[i + 2]! - 16) < 12;
          const unknown = Math.abs(data[i]! - 28) + Math.abs(data[i + 1]! - 28) + Math.abs(data[i + 2]! - 34) < 12;
          if (!bg && !unknown) lit++;
          hash = Math.imul(hash ^ (data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16)), 16777619) >>> 0;
        }
      }
      const d = el.dataset;
      return {
        seq: Number(d.seq),
        frames: Number(d.frames),
        time: Number(d.time),
        known: Number(d.known),
        costSum: Number(d.costSum),
        vehicle: d.vehicle ?? '',
        hash,
        lit: c.width * c.height ? lit / (c.width * c.height) : 0,
      };
    }),
  );
}

describe.skipIf(!CAN_RUN_BROWSER)('browser mode: sensor studies', () => {
  const session = useAppSession('thicket-e2e-study-', { api: true });
  let sceneId: number;

  beforeAll(async () => {
    const { api } = session;
    await api.call('project.create', { path: join(session.dir, 'study.thicket') });
    // The Scenes page's own form is covered by simulate-flow.test.ts; here the scene is set-up.
    const gen = await api.call('scenes.generate', { kind: 'offroad', seed: 1, params: { sizeM: 40, targetTriangles: 150_000 } });
    sceneId = (await api.waitForJob(gen.job.id)).result!.scene as number;
  }, 180_000);

  it('creates a study with a mount sweep, plays it in synced panels, compares and deletes it', async () => {
    const { page, api } = session;
    await page.goto(session.url);
    await expectProjectName(page, 'study');
    await page.getByTestId('nav-studies').click();
    await expect.poll(() => page.getByTestId('studies-empty').textContent(), { timeout: 15_000 }).toContain('No studies yet');

    // ---- the form: LMS-291 and VLP-16, 1.5 s, height 1.5/2.5 m × pitch 0/5° ----
    await page.getByTestId('study-new').click();
    await page.getByTestId('study-submit').waitFor();
    await expect.poll(() => page.getByTestId('study-reason').textContent()).toContain('Choose the sensors');
    // Dozens of built-ins: the list scrolls, so a user types to find a sensor, as here.
    await page.getByTestId('study-profiles').click();
    await page.keyboard.type('lms291-180-1');
    await page.locator('.n-base-select-option', { hasText: /^lms291-180-1 · / }).click();
    await page.keyboard.type('vlp16');
    await page.locator('.n-base-select-option', { hasText: /^vlp16 · / }).click();
    await page.getByText('New sensor study').click(); // closes the menu
    await page.getByTestId('study-seconds').fill('1.5');
    await page.getByTestId('study-sweep').click();
    for (const [k, from, to, step] of [
      ['height', '1.5', '2.5', '1'],
      ['pitchDeg', '0', '5', '5'],
    ] as const) {
      await page.getByTestId(`study-sweep-${k}-from`).fill(from);
      await page.getByTestId(`study-sweep-${k}-to`).fill(to);
      await page.getByTestId(`study-sweep-${k}-step`).fill(step);
    }
    await page.getByText('New sensor study').click(); // blur: the last number is committed
    await expect.poll(() => page.getByTestId('study-reason').getAttribute('data-runs')).toBe('8');
    await expect.poll(() => page.getByTestId('study-submit').isEnabled()).toBe(true);
    const started = Date.now();
    await page.getByTestId('study-submit').click();

    const job = page.locator('[data-testid="job-row"][data-kind="study"]').first();
    await expect.poll(() => job.getAttribute('data-state'), { timeout: 120_000 }).toBe('done');
    const jobSeconds = (Date.now() - started) / 1000;
    const row = page.getByTestId('study-row').first();
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 15_000 }).toBe('done');
    const studyId = Number(await row.getAttribute('data-study-id'));
    await expect.poll(() => row.getByTestId('study-row-results').textContent(), { timeout: 15_000 }).toContain('reached the goal');
    expect(await row.textContent()).toContain('lms291-180-1');
    expect(await row.textContent()).toContain('× 4 mounts');

    const study: StudyData = await api.call('studies.get', { id: studyId });
    expect(study.sceneId).toBe(sceneId);
    expect(study.results!.length).toBe(8);
    expect(study.results!.map((r) => [r.profile, r.mount.height, r.mount.pitchDeg])).toEqual([
      ['lms291-180-1', 1.5, 0],
      ['lms291-180-1', 1.5, 5],
      ['lms291-180-1', 2.5, 0],
      ['lms291-180-1', 2.5, 5],
      ['vlp16', 1.5, 0],
      ['vlp16', 1.5, 5],
      ['vlp16', 2.5, 0],
      ['vlp16', 2.5, 5],
    ]);

    // ---- the study page: one panel per sensor, drawn, at the end ----
    await row.click();
    await page.getByTestId('study-view').waitFor({ timeout: 15_000 });
    await expect.poll(async () => (await panels(page)).map((p) => p.seq), { timeout: 15_000 }).toEqual([0, 4]);
    await expect.poll(async () => (await panels(page)).every((p) => p.frames > 0 && p.lit > 0.01), { timeout: 30_000 }).toBe(true);
    const atEnd = await panels(page);
    expect(Number(await page.getByTestId('study-timeline').getAttribute('data-end'))).toBeCloseTo(1.5, 3);
    await page.screenshot({ path: join(SHOTS, 'e2e-study-view.png'), fullPage: true });

    // The page's replay of the map is the host's costmap at the same time, cell for cell in sum.
    for (const p of atEnd) {
      const cm = await api.call('studies.costmap', { id: studyId, seq: p.seq, time: p.time });
      expect(cm.frames).toBe(p.frames);
      const fp = costFingerprint(cm.cost, cm.lethalCost);
      expect([p.known, p.costSum]).toEqual([fp.known, fp.costSum]);
    }

    // ---- one clock: Home goes to 0 (empty maps), → steps every panel forward ----
    await unfocus(page);
    await page.keyboard.press('Home');
    await expect.poll(async () => (await panels(page)).map((p) => p.frames)).toEqual([0, 0]);
    const atStart = await panels(page);
    for (const p of atStart) expect(p.known).toBe(0);
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    // five steps of the slower sensor (VLP-16, 10 Hz) = 0.5 s
    await expect.poll(async () => Number(await page.getByTestId('study-timeline').getAttribute('data-time'))).toBeCloseTo(0.5, 3);
    await expect.poll(async () => (await panels(page)).every((p) => p.frames > 0)).toBe(true);
    const mid = await panels(page);
    for (let k = 0; k < mid.length; k++) {
      expect(mid[k]!.time).toBeCloseTo(0.5, 3);
      expect(mid[k]!.known).toBeGreaterThan(0);
      expect(mid[k]!.known).toBeLessThanOrEqual(atEnd[k]!.known);
      expect(mid[k]!.vehicle).not.toBe(atStart[k]!.vehicle); // the vehicle moved…
      expect(mid[k]!.hash).not.toBe(atStart[k]!.hash); // …and the picture changed
      expect(mid[k]!.hash).not.toBe(atEnd[k]!.hash);
    }
    // scans by then: the LMS-291 sweeps at 75 Hz, the VLP-16 turns at 10 Hz
    expect(mid[0]!.frames).toBe(37);
    expect(mid[1]!.frames).toBe(5);

    // ---- the metrics table has the API's numbers ----
    for (const r of study.results!) {
      const tr = page.locator(`[data-testid="study-metrics-row"][data-seq="${r.seq}"]`);
      for (const m of METRICS) {
        const v = r[m.key] as number | null;
        expect(await tr.locator(`[data-metric="${m.key}"]`).getAttribute('data-value'), `run ${r.seq} ${m.key}`).toBe(v === null ? '' : String(v));
      }
    }

    // ---- the sweep heatmap: a cell opens its run in a third panel ----
    await expect.poll(() => page.getByTestId('sweep-cell').count()).toBe(8);
    const cell = page.locator('[data-testid="sweep-cell"][data-seq="7"]');
    expect(await cell.getAttribute('data-value')).toBe(String(study.results![7]!.cellsObserved)); // cells observed: no run reached the goal (34 m away) in 1.5 s
    await cell.click();
    await expect.poll(async () => (await panels(page)).map((p) => p.seq)).toEqual([0, 4, 7]);
    await expect.poll(async () => (await panels(page))[2]!.lit, { timeout: 30_000 }).toBeGreaterThan(0.01);
    expect((await panels(page))[2]!.time).toBeCloseTo(0.5, 3); // it joins the shared clock
    expect(decodeURIComponent(page.url())).toContain('runs=0,4,7'); // the view is linkable
    expect(await cell.getAttribute('data-shown')).toBe('true');

    // ---- the HTML report ----
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('study-report').click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^study-${studyId}-.*\\.html$`));
    const html = readFileSync((await download.path())!, 'utf8');
    expect(html).toContain('Sensor study');
    expect(html.match(/data:image\/png;base64,/g)?.length).toBe(8);

    // ---- delete, with a confirmation ----
    await page.getByTestId('study-delete').click();
    await page.getByTestId('study-delete-confirm').click();
    await page.getByTestId('studies-view').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('studies-empty').textContent(), { timeout: 15_000 }).toContain('No studies yet');
    expect(await api.call('studies.list', {})).toEqual([]);
    expect(session.errors).toEqual([]);
    console.log(`[studies e2e] 8 runs × 1.5 s: job ${jobSeconds.toFixed(1)} s from submit to done`);
  });
});
