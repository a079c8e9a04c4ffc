/// <reference lib="dom" />
/**
 * Playback in the log and run views, in browser mode: a small off-road scene and a 2-second
 * VLP-16 drive along its trail are set up through the host's API (the run has ~20 sweeps and
 * misses at the sky), then the run view is driven from the keyboard and the toolbar: space plays
 * and pauses, the arrows step by sweep and by packet, the colour mode switches to ring and class,
 * misses show as rays, and the canvas is drawn without console errors. A one-scan KITTI log opens
 * in the log view with its single sweep.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { CAN_RUN_BROWSER, SHOTS, canvasCoverage, expectProjectName, useAppSession } from '../helpers/app-session';
import { syntheticKitti } from '../helpers/temp';

type Hook = { ready: boolean; pointCount: number; highlightCount: number; missCount: number };
const hook = (page: Page) => page.evaluate(() => (window as unknown as { __thicketViewport?: Hook }).__thicketViewport ?? null);
const attr = async (page: Page, name: string) => Number(await page.getByTestId('log-timeline').getAttribute(`data-${name}`));
const playing = async (page: Page) => (await page.getByTestId('log-timeline').getAttribute('data-playing')) === 'true';
/** Keys go to the page, not to whichever control was clicked last. */
const unfocus = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

async function pick(page: Page, testId: string, label: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.locator('.n-base-select-option', { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }).click();
  await unfocus(page);
}

describe.skipIf(!CAN_RUN_BROWSER)('browser mode: playing a log back', () => {
  const session = useAppSession('thicket-e2e-timeline-', { api: true });
  let runId: number;
  let logId: number;

  beforeAll(async () => {
    const { api } = session;
    await api.call('project.create', { path: join(session.dir, 'playback.thicket') });
    const gen = await api.call('scenes.generate', { kind: 'offroad', seed: 3, params: { sizeM: 40, targetTriangles: 150_000 } });
    const scene = (await api.waitForJob(gen.job.id)).result!.scene as number;
    // Mesh mode (one ray per beam) keeps the drive quick; the trail keeps the sensor on the ground.
    const sim = await api.call('simulate.start', { sceneId: scene, profileId: 'vlp16', mode: 'mesh', trajectory: { kind: 'trail', speed: 2.4, seconds: 2 } });
    runId = (await api.waitForJob(sim.job.id, 180_000)).result!.run as number;
    const imp = await api.call('logs.importBytes', { name: 'scan.bin', bytes: new Uint8Array(syntheticKitti(20_000)) });
    logId = (await api.waitForJob(imp.job.id)).result!.log as number;
  }, 300_000);

  it('plays, pauses and steps a run, recolours it and shows its misses', async () => {
    const { page, api } = session;
    const timeline = await api.call('runs.timeline', { id: runId });
    expect(timeline.sweepStart.length).toBeGreaterThanOrEqual(15); // 2 s at 10 Hz: ~20 sweeps
    const starts = [...timeline.sweepStart];

    await page.goto(session.url);
    await expectProjectName(page, 'playback');
    await page.evaluate((id) => (window.location.hash = `#/runs/${id}`), runId);
    await page.getByTestId('run-view').waitFor({ timeout: 15_000 });
    await expect.poll(() => hook(page), { timeout: 60_000 }).toMatchObject({ ready: true });
    await expect.poll(() => attr(page, 'sweeps'), { timeout: 15_000 }).toBe(starts.length);
    // The first sweep is highlighted once its points arrive.
    await expect.poll(async () => (await hook(page))?.highlightCount ?? 0, { timeout: 15_000 }).toBeGreaterThan(1_000);

    // Space plays (slowly, so the run does not end before the pause) and pauses.
    await pick(page, 'timeline-speed', '×0.25');
    await page.keyboard.press(' ');
    await expect.poll(() => playing(page), { timeout: 5_000 }).toBe(true);
    await expect.poll(() => attr(page, 'sweep'), { timeout: 15_000 }).toBeGreaterThan(0);
    await page.keyboard.press(' ');
    await expect.poll(() => playing(page), { timeout: 5_000 }).toBe(false);
    const paused = await attr(page, 'packet');
    await page.waitForTimeout(400);
    expect(await attr(page, 'packet')).toBe(paused);

    // By sweep, → goes to the next sweep's first packet and ← back to the sweep's own start.
    const s = await attr(page, 'sweep');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => attr(page, 'sweep'), { timeout: 5_000 }).toBe(s + 1);
    expect(await attr(page, 'packet')).toBe(starts[s + 1]);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => attr(page, 'packet'), { timeout: 5_000 }).toBe(starts[s]);

    // By packet, → is one packet and Shift+→ ten.
    await page.getByTestId('timeline-unit').getByText('Packet').click();
    await unfocus(page);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => attr(page, 'packet'), { timeout: 5_000 }).toBe(starts[s]! + 1);
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(() => attr(page, 'packet'), { timeout: 5_000 }).toBe(starts[s]! + 11);
    await page.getByTestId('timeline-unit').getByText('Sweep').click();
    await unfocus(page);

    // A focused control keeps its own keys: → on the scrubber moves it one packet, not a sweep.
    const before = await attr(page, 'packet');
    await page.getByTestId('timeline-slider').locator('[role="slider"]').focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => attr(page, 'packet'), { timeout: 5_000 }).toBe(before + 1);
    await unfocus(page);

    // Colour by ring, then by class: the legend follows and the highlighted sweep stays drawn.
    await pick(page, 'color-mode', 'Ring');
    await expect.poll(() => page.getByTestId('color-legend').getAttribute('data-mode'), { timeout: 5_000 }).toBe('ring');
    await expect.poll(() => page.getByTestId('color-legend').textContent(), { timeout: 5_000 }).toContain('Ring');
    await pick(page, 'color-mode', 'Class');
    await expect.poll(() => page.getByTestId('color-legend').getAttribute('data-mode'), { timeout: 5_000 }).toBe('class');
    expect((await hook(page))!.highlightCount).toBeGreaterThan(1_000);

    // Misses as faint rays: a VLP-16's upper lasers see the sky.
    await page.getByTestId('timeline-misses').click();
    await unfocus(page);
    await expect.poll(async () => (await hook(page))?.missCount ?? 0, { timeout: 15_000 }).toBeGreaterThan(100);
    await expect.poll(() => page.getByTestId('timeline-shown').textContent(), { timeout: 5_000 }).toContain('misses');

    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SHOTS, 'e2e-log-timeline.png') });
    const drawn = await canvasCoverage(page);
    expect(drawn.differing).toBeGreaterThan(0.002);
    expect(drawn.colours).toBeGreaterThan(8);
    expect(session.errors).toEqual([]);
  });

  it('opens a one-scan log with one sweep, and space plays nothing there', async () => {
    const { page } = session;
    await page.evaluate((id) => (window.location.hash = `#/logs/${id}`), logId);
    await page.getByTestId('log-view').waitFor({ timeout: 15_000 });
    await expect.poll(() => hook(page), { timeout: 60_000 }).toMatchObject({ ready: true });
    await expect.poll(() => attr(page, 'sweeps'), { timeout: 15_000 }).toBe(1);
    expect(await attr(page, 'packets')).toBe(1);
    await unfocus(page);
    await page.keyboard.press(' ');
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(200);
    expect(await playing(page)).toBe(false);
    expect(await attr(page, 'packet')).toBe(0);
    expect((await canvasCoverage(page)).differing).toBeGreaterThan(0.002);
    expect(session.errors).toEqual([]);
  });
});
