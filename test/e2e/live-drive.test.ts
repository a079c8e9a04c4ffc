/// <reference lib="dom" />
/**
 * A live A* drive in browser mode, as a person would: open a scene's *Drive live…*, place the
 * start and the goal on the scene seen from above, choose two sensors, Drive at real-time pace
 * (the clock does not run ahead of the wall clock), switch to the Max pace, watch both panels
 * reach the goal on one clock, scrub back to the start and forward to the end, save the drive as
 * a study and open it. Nothing is stored before
 * the save.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { worldToScreen } from '../../src-renderer/components/studies/panel-view';
import { sceneTrail } from '../../src-common/scene-meta';
import { CAN_RUN_BROWSER, SHOTS, expectProjectName, useAppSession } from '../helpers/app-session';

const attr = (page: Page, id: string, name: string) => page.getByTestId(id).getAttribute(name);

/** Clicks the drive map at world point (x, y), through the map's own view. */
async function clickWorld(page: Page, x: number, y: number): Promise<void> {
  const map = page.getByTestId('drive-map-canvas');
  const box = (await map.boundingBox())!;
  const [cx, cy, span] = (await attr(page, 'drive-map', 'data-view'))!.split(',').map(Number) as [number, number, number];
  const [sx, sy] = worldToScreen({ cx, cy, span }, box.width, box.height, x, y);
  await page.mouse.click(box.x + sx, box.y + sy);
}

/** The point `d` metres along a polyline. */
function along(trail: readonly (readonly [number, number])[], d: number): [number, number] {
  let left = d;
  for (let i = 1; i < trail.length; i++) {
    const a = trail[i - 1]!, b = trail[i]!, l = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (left <= l) return [a[0] + ((b[0] - a[0]) * left) / l, a[1] + ((b[1] - a[1]) * left) / l];
    left -= l;
  }
  return [trail[trail.length - 1]![0], trail[trail.length - 1]![1]];
}

describe.skipIf(!CAN_RUN_BROWSER)('browser mode: a live A* drive', () => {
  const session = useAppSession('thicket-e2e-drive-', { api: true });
  let sceneId = 0;
  let trail: [number, number][] = [];

  beforeAll(async () => {
    const { api } = session;
    await api.call('project.create', { path: join(session.dir, 'drive.thicket') });
    const gen = await api.call('scenes.generate', { kind: 'offroad', seed: 1, params: { sizeM: 40, targetTriangles: 150_000 } });
    sceneId = (await api.waitForJob(gen.job.id)).result!.scene as number;
    const scene = (await api.call('scenes.list', {})).find((s) => s.id === sceneId)!;
    trail = sceneTrail(scene.meta).map((p) => [p[0], p[1]]);
  }, 180_000);

  it('places start and goal, drives two sensors on one clock, and saves the drive as a study', async () => {
    const { page, api } = session;
    await page.goto(session.url);
    await expectProjectName(page, 'drive');
    await page.getByTestId('nav-scenes').click();
    await page.locator(`[data-testid="scene-row"][data-scene-id="${sceneId}"]`).click();
    await page.getByTestId('scene-drive').click();
    await page.getByTestId('live-drive').waitFor();
    await expect.poll(() => attr(page, 'drive-map', 'data-ready'), { timeout: 30_000 }).toBe('1');
    expect(await attr(page, 'live-drive', 'data-state')).toBe('setup');

    // Start 3 m along the trail, goal 11 m along it: a short drive both sensors finish.
    const start = along(trail, 3), goal = along(trail, 11);
    await page.getByTestId('drive-pick-start').click();
    await clickWorld(page, ...start);
    // Placing the start arms the goal.
    await clickWorld(page, ...goal);
    const placed = (id: string) => attr(page, 'drive-map', id).then((v) => v!.split(',').map(Number));
    const [sx, sy] = await placed('data-start'), [gx, gy] = await placed('data-goal');
    expect(Math.hypot(sx! - start[0], sy! - start[1])).toBeLessThan(0.5);
    expect(Math.hypot(gx! - goal[0], gy! - goal[1])).toBeLessThan(0.5);
    await page.screenshot({ path: join(SHOTS, 'e2e-drive-setup.png') });

    // Two sensors: the VLP-16 is there by default; add the LMS-291.
    await page.getByTestId('drive-profiles').click();
    await page.keyboard.type('lms291-180-1');
    await page.locator('.n-base-select-option', { hasText: /^lms291-180-1 · / }).click();
    await page.getByText('Live drive', { exact: true }).click(); // closes the menu
    await page.getByTestId('drive-seconds').fill('20');
    await page.getByText('Live drive', { exact: true }).click();
    const before = (await api.call('studies.list', {})).length;

    // Real time: the clock never runs ahead of the wall clock.
    await page.getByTestId('drive-start-button').click();
    await expect.poll(() => attr(page, 'live-drive', 'data-state'), { timeout: 15_000 }).toBe('running');
    await expect.poll(async () => Number(await attr(page, 'live-drive', 'data-time')), { timeout: 60_000 }).toBeGreaterThan(0.2);
    const t0 = Date.now(), s0 = Number(await attr(page, 'live-drive', 'data-time'));
    await page.waitForTimeout(1500);
    const t1 = Date.now(), s1 = Number(await attr(page, 'live-drive', 'data-time'));
    expect(s1).toBeGreaterThanOrEqual(s0);
    expect(s1 - s0).toBeLessThanOrEqual(((t1 - t0) / 1000) * 1.1 + 0.1);
    await expect.poll(() => page.getByTestId('study-panel').count()).toBe(2);
    // A live drive shows every sensor: its panels cannot be closed.
    expect(await page.getByTestId('study-panel-close').count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'e2e-drive-running.png') });

    // As fast as simulated, to the end.
    await page.getByTestId('study-speed').click();
    await page.locator('.n-base-select-option', { hasText: /^Max$/ }).click();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur()); // keys go to the page, not the speed select
    await expect.poll(() => attr(page, 'live-drive', 'data-state'), { timeout: 180_000 }).toBe('done');
    await expect.poll(async () => Number(await attr(page, 'live-drive', 'data-time')), { timeout: 15_000 }).toBeCloseTo(Number(await attr(page, 'live-drive', 'data-known')), 1);
    const statuses = await page.getByTestId('study-panel-status').allTextContents();
    expect(statuses).toHaveLength(2);
    for (const s of statuses) expect(s).toMatch(/goal/);
    // Both maps were drawn from the drive's scans.
    for (const known of await page.getByTestId('study-panel').evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.known)))) expect(known).toBeGreaterThan(20);
    await page.waitForTimeout(500); // the speed menu's closing fade
    await page.screenshot({ path: join(SHOTS, 'e2e-drive-done.png') });
    // The timeline scrubs the drive: Home goes back to the start (empty maps), End to the end.
    const end = Number(await attr(page, 'live-drive', 'data-time'));
    await page.keyboard.press('Home');
    await expect.poll(async () => Number(await attr(page, 'live-drive', 'data-time')), { timeout: 5_000 }).toBe(0);
    await expect.poll(() => page.getByTestId('study-panel').evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.frames))), { timeout: 5_000 }).toEqual([0, 0]);
    await page.keyboard.press('End');
    await expect.poll(async () => Number(await attr(page, 'live-drive', 'data-time')), { timeout: 5_000 }).toBeCloseTo(end, 1);
    expect((await api.call('studies.list', {})).length).toBe(before);

    // Keep it as a study, and open it.
    await page.getByTestId('drive-save-name').fill('Watched on the trail');
    await page.getByTestId('drive-save').click();
    await expect.poll(() => attr(page, 'live-drive', 'data-study'), { timeout: 15_000 }).not.toBe('');
    const studyId = Number(await attr(page, 'live-drive', 'data-study'));
    const study = await api.call('studies.get', { id: studyId });
    expect(study.name).toBe('Watched on the trail');
    expect(study.results!.map((r) => r.profile).sort()).toEqual(['lms291-180-1', 'vlp16']);
    expect(study.results!.every((r) => r.outcome === 'goal')).toBe(true);
    await page.getByTestId('drive-open-study').click();
    await page.getByTestId('study-view').waitFor();
    await expect.poll(() => page.getByTestId('study-panel').count(), { timeout: 15_000 }).toBe(2);
    expect(session.errors).toEqual([]);
  }, 400_000);
});
