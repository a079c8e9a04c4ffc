/// <reference lib="dom" />
/**
 * Labelling a real scan in browser mode, as a person does it: the KITTI scan imported (set up
 * through the host's API), *Label* on the log view, the top view, a box dragged over the middle of
 * the scan, ground (key 1) assigned, undone and redone from the keyboard, saved as version 1, the
 * page reloaded with the labels still there (the legend's ground count), and a SemanticKITTI
 * `.label` exported: one u32 per point, the assigned points ground. Then an automatic proposal
 * (a job, version 2) with its objects and boxes, an object selected from the list, lasso, Shift
 * and Ctrl boxes and the brush on the canvas, the two
 * versions compared, confidence colouring and the `?` dialog; then a proposed object halved and
 * the halving undone, two objects grouped into a patch and ungrouped, a box's length set by hand
 * and the points inside it selected with O. Screenshots land in test-results/.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { CAN_RUN_BROWSER, SHOTS, canvasCoverage, expectProjectName, useAppSession } from '../helpers/app-session';
import { dataFile } from '../helpers/shared-data';

const SCAN = dataFile('overlapnet_kitti/000000.bin');
const HAS_SCAN = existsSync(SCAN);
if (!HAS_SCAN) console.warn(`[thicket tests] ${SCAN} is absent: the labelling end-to-end test is skipped`);

type Hook = { ready: boolean; points: number; shown: number; selected: number; dirty: boolean; saving: boolean; version: number | null };
const hook = (page: Page) => page.evaluate(() => (window as unknown as { __thicketLabels?: Hook }).__thicketLabels ?? null);
/** The legend's count for a class name, or 0 when the class has no points. */
async function legendCount(page: Page, name: string): Promise<number> {
  const rows = await page.getByTestId('color-legend').locator('.swatch').allTextContents();
  const row = rows.find((r) => r.trim().startsWith(name));
  return row ? Number(row.replace(name, '').replace(/[^\d]/g, '')) : 0;
}
async function waitDrawn(page: Page): Promise<void> {
  await expect.poll(async () => (await hook(page))?.ready, { timeout: 60_000 }).toBe(true);
  await expect.poll(() => page.getByTestId('label-canvas').getAttribute('data-ready'), { timeout: 60_000 }).toBe('true');
}

describe.skipIf(!CAN_RUN_BROWSER || !HAS_SCAN)('browser mode: labelling a real scan', () => {
  const session = useAppSession('thicket-e2e-label-', { api: true });
  let logId: number;

  beforeAll(async () => {
    const { api } = session;
    await api.call('project.create', { path: join(session.dir, 'label.thicket') });
    const imported = await api.call('logs.importFile', { path: SCAN });
    logId = Number((await api.waitForJob(imported.job.id, 120_000)).result!.log);
  }, 180_000);

  it('box-selects, labels, undoes, redoes, saves, reloads and exports a .label', async () => {
    const { page } = session;
    await page.setViewportSize({ width: 1600, height: 950 });
    await page.goto(session.url);
    await expectProjectName(page, 'label');
    await page.evaluate((id) => (window.location.hash = `#/logs/${id}`), logId);
    await page.getByTestId('log-label').click();
    await page.getByTestId('label-view').waitFor({ timeout: 15_000 });
    await waitDrawn(page);
    const points = (await hook(page))!.points;
    expect(points).toBeGreaterThan(100_000);
    expect(await legendCount(page, 'unlabelled')).toBe(points);

    // Look down on the scan and drag a box over its middle with the box tool.
    await page.getByTestId('top-view').click();
    await page.waitForTimeout(400);
    await page.keyboard.press('b');
    const box = (await page.getByTestId('label-canvas').boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    await page.mouse.move(cx - box.width * 0.12, cy - box.height * 0.12);
    await page.mouse.down();
    await page.mouse.move(cx, cy, { steps: 4 });
    await page.mouse.move(cx + box.width * 0.12, cy + box.height * 0.12, { steps: 4 });
    await page.mouse.up();
    await expect.poll(async () => (await hook(page))!.selected, { timeout: 5_000 }).toBeGreaterThan(1000);
    const selected = (await hook(page))!.selected;
    expect(selected).toBeLessThan(points);
    expect(await page.getByTestId('selection-count').getAttribute('data-count')).toBe(String(selected));
    await page.screenshot({ path: join(SHOTS, 'e2e-label-selected.png') });

    // Ground (key 1), assigned with A; undone and redone.
    await page.keyboard.press('1');
    await page.keyboard.press('a');
    await expect.poll(() => legendCount(page, 'ground'), { timeout: 5_000 }).toBe(selected);
    expect(await legendCount(page, 'unlabelled')).toBe(points - selected);
    await page.keyboard.press('Control+z');
    await expect.poll(() => legendCount(page, 'ground'), { timeout: 5_000 }).toBe(0);
    await page.keyboard.press('Control+Shift+Z');
    await expect.poll(() => legendCount(page, 'ground'), { timeout: 5_000 }).toBe(selected);
    expect(await page.getByTestId('history-done').allTextContents()).toHaveLength(1);

    // Save now (autosave would, 3 s later): version 1.
    await page.getByTestId('label-save').click();
    await expect.poll(() => hook(page), { timeout: 15_000 }).toMatchObject({ dirty: false, version: 1 });
    await expect.poll(() => page.getByTestId('label-save-state').textContent()).toBe('Saved v1');
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SHOTS, 'e2e-label-assigned.png') });

    // Reload the page: the labels are the saved version's.
    await page.reload();
    await page.getByTestId('label-view').waitFor({ timeout: 15_000 });
    await waitDrawn(page);
    expect((await hook(page))!.version).toBe(1);
    await expect.poll(() => legendCount(page, 'ground'), { timeout: 5_000 }).toBe(selected);
    const cover = await canvasCoverage(page, 'label-canvas');
    expect(cover.differing).toBeGreaterThan(0.02);
    expect(cover.colours).toBeGreaterThan(2);
    await page.screenshot({ path: join(SHOTS, 'e2e-label-reloaded.png') });

    // Export a SemanticKITTI .label: one u32 per point, class in the low 16 bits.
    const out = join(session.dir, 'scan.label');
    await page.getByTestId('label-export').click();
    await page.getByTestId('label-file-dialog').waitFor();
    await page.getByTestId('label-file-path').fill(out);
    await page.getByTestId('label-file-start').click();
    await page.getByTestId('label-file-dialog').waitFor({ state: 'hidden', timeout: 15_000 });
    await expect.poll(() => page.getByTestId('label-notice').textContent(), { timeout: 5_000 }).toContain('Exported');
    expect(statSync(out).size).toBe(4 * points);
    const labels = new Uint32Array(Uint8Array.from(readFileSync(out)).buffer);
    expect(labels.filter((l) => (l & 0xffff) === 1).length).toBe(selected);
    expect(session.errors).toEqual([]);
  });
  it('proposes labels, draws the objects\' boxes, compares two versions and shows the shortcuts', async () => {
    const { page } = session;
    await page.getByTestId('label-propose').click();
    // The proposal is a job; its version (2, source auto) is loaded when it is done.
    await expect.poll(async () => (await hook(page))?.version, { timeout: 120_000 }).toBe(2);
    await waitDrawn(page);
    await expect.poll(() => page.getByTestId('objects-list').locator('[data-testid^="object-"]').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await legendCount(page, 'ground')).toBeGreaterThan(1000);
    await page.getByTestId('top-view').click();
    await page.mouse.move(5, 500); // off the toolbar, so no tooltip shows
    await page.waitForTimeout(600);
    await page.screenshot({ path: join(SHOTS, 'e2e-label-proposed.png') });

    // Hiding the ground leaves the objects standing on it.
    const shownAll = (await hook(page))!.shown;
    await page.getByTestId('class-eye-1').click();
    await expect.poll(async () => (await hook(page))!.shown, { timeout: 5_000 }).toBeLessThan(shownAll / 2);
    await waitDrawn(page);
    await page.mouse.move(5, 500);
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(SHOTS, 'e2e-label-ground-hidden.png') });
    await page.getByTestId('class-eye-1').click();
    await expect.poll(async () => (await hook(page))!.shown, { timeout: 5_000 }).toBe(shownAll);

    // The segment tool selects one proposed object's points; Shift adds, Ctrl subtracts.
    await page.keyboard.press('s');
    const first = page.getByTestId('objects-list').locator('[data-testid^="object-"]').first();
    await first.click();
    const oneObject = (await hook(page))!.selected;
    expect(oneObject).toBeGreaterThan(0);

    // Lasso replaces, Shift + box adds, Ctrl + box subtracts, the brush paints.
    const r = (await page.getByTestId('label-canvas').boundingBox())!;
    const at = (fx: number, fy: number) => [r.x + r.width * fx, r.y + r.height * fy] as const;
    const drag = async (points: (readonly [number, number])[], modifier?: 'Shift' | 'Control') => {
      if (modifier) await page.keyboard.down(modifier);
      await page.mouse.move(...points[0]!);
      await page.mouse.down();
      for (const p of points.slice(1)) await page.mouse.move(...p, { steps: 3 });
      await page.mouse.up();
      if (modifier) await page.keyboard.up(modifier);
    };
    const selected = async () => (await hook(page))!.selected;
    await page.keyboard.press('l');
    await drag([at(0.4, 0.4), at(0.55, 0.35), at(0.6, 0.6), at(0.42, 0.58)]);
    const lasso = await selected();
    expect(lasso).toBeGreaterThan(500);
    await page.keyboard.press('b');
    await drag([at(0.6, 0.4), at(0.7, 0.6)], 'Shift');
    const added = await selected();
    expect(added).toBeGreaterThan(lasso);
    await drag([at(0.38, 0.3), at(0.5, 0.65)], 'Control');
    const subtracted = await selected();
    expect(subtracted).toBeLessThan(added);
    expect(subtracted).toBeGreaterThan(0);
    await page.keyboard.press('r');
    await drag([at(0.45, 0.5), at(0.5, 0.52), at(0.55, 0.5)]);
    const brushed = await selected();
    expect(brushed).toBeGreaterThan(0);
    expect(brushed).toBeLessThan(added);

    // Compare the hand-made version 1 with the proposal.
    await page.getByTestId('compare').click();
    const result = page.getByTestId('compare-result');
    await result.waitFor({ timeout: 15_000 });
    expect(await result.textContent()).toContain('v1 vs v2');
    expect(await result.locator('tbody tr').count()).toBeGreaterThan(0);

    // Confidence colouring, then the shortcuts.
    await page.getByTestId('label-color-by').click();
    await page.locator('.n-base-select-option', { hasText: 'Confidence' }).click();
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SHOTS, 'e2e-label-compare.png') });
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('?');
    await page.getByTestId('shortcuts-dialog').waitFor();
    await page.waitForTimeout(400);
    expect(await page.getByTestId('shortcuts-dialog').textContent()).toContain('Lasso select');
    await page.screenshot({ path: join(SHOTS, 'e2e-label-shortcuts.png') });
    await page.keyboard.press('Escape');
    await page.getByTestId('shortcuts-dialog').waitFor({ state: 'hidden' });

    // The class list's editor.
    await page.getByTestId('class-edit').click();
    await page.getByTestId('class-editor').waitFor();
    expect(await page.getByTestId('class-row-14').locator('input').first().inputValue()).toBe('fallen log');
    await page.waitForTimeout(400); // the dialog's fade-in
    await page.screenshot({ path: join(SHOTS, 'e2e-label-classes.png') });
    await page.keyboard.press('Escape');
    expect(session.errors).toEqual([]);
  });
  it('splits an object, groups a patch, sets a box by hand and selects inside it', async () => {
    const { page } = session;
    const rows = page.getByTestId('objects-list').locator('[data-testid^="object-"]');
    const count = () => rows.count();
    const before = await count();
    expect(before).toBeGreaterThan(1);
    const done = () => page.getByTestId('history-done').count();
    const edits = await done();

    // Halve the first object (Shift+X), then undo.
    await rows.first().click();
    await page.mouse.move(5, 500);
    await page.keyboard.press('Shift+X');
    await expect.poll(count, { timeout: 5_000 }).toBe(before + 1);
    expect(await done()).toBe(edits + 1);
    await page.keyboard.press('Control+z');
    await expect.poll(count, { timeout: 5_000 }).toBe(before);

    // Check two objects and group them into a patch (G); ungroup (Shift+G).
    await rows.nth(0).locator('.n-checkbox').click();
    await rows.nth(1).locator('.n-checkbox').click();
    // (The proposal already made shrub patches: ungrouping gives the objects back as they were.)
    const patches = await page.getByTestId('patch-tag').count();
    await page.keyboard.press('g');
    await expect.poll(count, { timeout: 5_000 }).toBe(before - 1);
    expect(await rows.first().getByTestId('patch-tag').count()).toBe(1);
    await page.keyboard.press('Shift+G');
    await expect.poll(count, { timeout: 5_000 }).toBe(before);
    expect(await page.getByTestId('patch-tag').count()).toBe(patches);

    // The first object's box, 2 m longer by hand; O selects the points inside it.
    await rows.first().click();
    const editor = page.getByTestId('box-editor');
    await editor.waitFor();
    const length = editor.getByTestId('box-L').locator('input');
    const was = Number(await length.inputValue());
    await length.fill(String(was + 2));
    await length.press('Enter');
    await expect.poll(() => editor.textContent(), { timeout: 5_000 }).toContain('set by hand');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Escape');
    await page.keyboard.press('o');
    await expect.poll(async () => (await hook(page))!.selected, { timeout: 5_000 }).toBeGreaterThan(0);
    await page.mouse.move(5, 500);
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(SHOTS, 'e2e-label-box-edit.png') });
    await page.keyboard.press('Control+z');
    await expect.poll(() => editor.textContent(), { timeout: 5_000 }).toContain('fitted');
    expect(session.errors).toEqual([]);
  });
});
