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
 * and the points inside it selected with O. The 3D box tool: a face handle dragged out lengthens
 * the object's box (undoably) and O then selects more points; the rotation handle turns it. Then
 * the whole loop: primitives extracted from the labels from the Label page (a model fitted to the
 * log there first), and a `.label` exported, imported back as a new version and exported again,
 * byte for byte the same. Screenshots land in test-results/.
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
  it('drags the 3D box\'s handles: a longer box selects more points, undoably; the ring turns it', async () => {
    const { page } = session;
    const rows = page.getByTestId('objects-list').locator('[data-testid^="object-"]');
    // The longest object (the list shows each box as L × W × H m).
    const sizes = (await rows.allTextContents()).map((t) => Number(/([\d.]+) × [\d.]+ × [\d.]+ m/.exec(t)?.[1] ?? 0));
    const longest = sizes.indexOf(Math.max(...sizes));
    await rows.nth(longest).click();
    await page.getByTestId('top-view').click();
    await page.mouse.move(5, 500);
    await page.keyboard.press('Escape');
    await page.keyboard.press('c');
    const handle = (h: string) => page.getByTestId(`box-handle-${h}`);
    await handle('+l').waitFor({ timeout: 5_000 });
    const editor = page.getByTestId('box-editor');
    const field = async (name: string) => Number(await editor.getByTestId(`box-${name}`).locator('input').inputValue());
    const length0 = await field('L');
    const yaw0 = await field('yaw°');
    const selected = async () => (await hook(page))!.selected;
    await page.keyboard.press('o');
    await expect.poll(selected, { timeout: 5_000 }).toBeGreaterThan(0);
    const inside0 = await selected();
    const edits = await page.getByTestId('history-done').count();

    // Drag the +length face's handle 60 px further out along the box's axis on the screen.
    const mid = async (h: string) => { const b = (await handle(h).boundingBox())!; return [b.x + b.width / 2, b.y + b.height / 2] as const; };
    const [cx, cy] = await mid('centre');
    const [fx, fy] = await mid('+l');
    const len = Math.hypot(fx - cx, fy - cy);
    const [ux, uy] = [(fx - cx) / len, (fy - cy) / len];
    await page.mouse.move(fx, fy);
    await page.mouse.down();
    await page.mouse.move(fx + 30 * ux, fy + 30 * uy, { steps: 3 });
    await page.mouse.move(fx + 60 * ux, fy + 60 * uy, { steps: 3 });
    await page.mouse.up();
    await expect.poll(() => field('L'), { timeout: 5_000 }).toBeGreaterThan(length0 + 0.5);
    expect(await editor.textContent()).toContain('set by hand');
    expect(await page.getByTestId('history-done').count()).toBe(edits + 1);
    // The handle followed the face: now about 60 px further out.
    const [gx, gy] = await mid('+l');
    expect(Math.abs(Math.hypot(gx - fx, gy - fy) - 60)).toBeLessThan(6);
    await page.keyboard.press('o');
    await expect.poll(selected, { timeout: 5_000 }).toBeGreaterThan(inside0);
    await page.mouse.move(5, 500);
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(SHOTS, 'e2e-label-box3d.png') });

    // The ring carried a quarter turn about the (moved) centre turns the box a quarter turn.
    const [ox, oy] = await mid('centre');
    const [rx, ry] = await mid('rotate');
    const [dx, dy] = [rx - ox, ry - oy];
    await page.mouse.move(rx, ry);
    await page.mouse.down();
    await page.mouse.move(ox + (dx - dy) * 0.7, oy + (dy + dx) * 0.7, { steps: 3 });
    await page.mouse.move(ox - dy, oy + dx, { steps: 3 });
    await page.mouse.up();
    await expect.poll(async () => Math.abs(Math.abs(((await field('yaw°')) - yaw0 + 540) % 360 - 180) - 90), { timeout: 5_000 }).toBeLessThan(5);
    expect(await page.getByTestId('history-done').count()).toBe(edits + 2);
    await page.mouse.move(5, 500);
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(SHOTS, 'e2e-label-box3d-turned.png') });

    // Both changes undo: the object's box is the fitted one again, and the 3D box with it.
    await page.keyboard.press('Control+z');
    await page.keyboard.press('Control+z');
    await expect.poll(() => editor.textContent(), { timeout: 5_000 }).toContain('fitted');
    expect(await field('L')).toBeCloseTo(length0, 2);
    await page.keyboard.press('o');
    await expect.poll(selected, { timeout: 5_000 }).toBe(inside0);
    await page.keyboard.press('v');
    await expect.poll(() => handle('centre').count()).toBe(0);
    expect(session.errors).toEqual([]);
  });
  it('extracts primitives from the labels, and a .label exported, imported back and exported again is the same file', async () => {
    const { page, api } = session;
    await page.keyboard.press('Escape');
    // Extract primitives…: the edits are saved first; this log has no model yet, so fit one here.
    await page.getByTestId('label-extract').click();
    await expect.poll(() => hook(page), { timeout: 15_000 }).toMatchObject({ dirty: false, saving: false });
    const version = (await hook(page))!.version!;
    await page.getByTestId('extract-fit').click();
    await page.getByTestId('fit-submit').click();
    await expect.poll(() => page.getByTestId('fit-result').count(), { timeout: 300_000 }).toBe(1);
    await page.locator('.n-drawer').filter({ has: page.getByTestId('fit-submit') }).getByRole('button', { name: 'Close', exact: true }).click();
    await expect.poll(() => page.getByTestId('extract-reason').textContent(), { timeout: 15_000 }).toContain('Runs as a job');
    await expect.poll(() => page.getByTestId('extract-labels').textContent(), { timeout: 10_000 }).toContain(`version ${version}`);
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(SHOTS, 'e2e-label-extract-drawer.png') });
    const before = new Set((await api.call('primitives.list', {})).map((p) => p.id));
    await page.getByTestId('extract-submit').click();
    await expect.poll(() => page.getByTestId('extract-job').getAttribute('data-state'), { timeout: 180_000 }).toBe('done');
    const result = (await page.getByTestId('extract-result').textContent())!;
    expect(result).toMatch(new RegExp(`^\\s*\\d+ primitives from \\d+ segments \\(label version ${version}\\)`));
    await page.screenshot({ path: join(SHOTS, 'e2e-label-extracted.png') });
    const made = (await api.call('primitives.list', {})).filter((p) => !before.has(p.id));
    expect(made.length).toBe(Number(/^\s*(\d+) primitives/.exec(result)![1]));
    expect(made.length).toBeGreaterThan(0);
    for (const p of made) expect(p).toMatchObject({ library: 'hybrid', sourceLogId: logId, origin: { labelVersion: version } });
    await page.keyboard.press('Escape');
    await page.getByTestId('extract-submit').waitFor({ state: 'hidden', timeout: 5_000 });

    // Export a .label, import it back (a new version), export again: the same bytes, the same legend.
    const legend = async () => (await page.getByTestId('color-legend').locator('.swatch').allTextContents()).map((t) => t.trim());
    const counts = await legend();
    const exportTo = async (path: string) => {
      await page.getByTestId('label-export').click();
      await page.getByTestId('label-file-dialog').waitFor();
      await page.getByTestId('label-file-path').fill(path);
      await page.getByTestId('label-file-start').click();
      await page.getByTestId('label-file-dialog').waitFor({ state: 'hidden', timeout: 15_000 });
      await expect.poll(() => page.getByTestId('label-notice').textContent(), { timeout: 5_000 }).toContain(path);
    };
    const first = join(session.dir, 'round-1.label'), second = join(session.dir, 'round-2.label');
    await exportTo(first);
    await page.getByTestId('label-import').click();
    await page.getByTestId('label-file-dialog').waitFor();
    await page.getByTestId('label-file-path').fill(first);
    await page.getByTestId('label-file-start').click();
    await page.getByTestId('label-file-dialog').waitFor({ state: 'hidden', timeout: 15_000 });
    await expect.poll(async () => (await hook(page))?.version, { timeout: 15_000 }).toBe(version + 1);
    await waitDrawn(page);
    expect(await page.getByTestId('label-notice').textContent()).toContain(`Imported as version ${version + 1}`);
    expect(await page.getByTestId('label-save-state').textContent()).toBe(`v${version + 1}`);
    expect(await legend()).toEqual(counts);
    await exportTo(second);
    const a = readFileSync(first), b = readFileSync(second);
    expect(b.length).toBe(4 * (await hook(page))!.points);
    expect(b.equals(a)).toBe(true);
    // Not an empty file: the classes and objects of the labels are in it.
    const words = new Uint32Array(Uint8Array.from(a).buffer);
    expect(words.filter((w) => w >>> 16 !== 0).length).toBeGreaterThan(100);
    expect(new Set(Array.from(words, (w) => w & 0xffff)).size).toBeGreaterThan(2);
    await page.screenshot({ path: join(SHOTS, 'e2e-label-reimported.png') });
    expect(session.errors).toEqual([]);
  });
});
