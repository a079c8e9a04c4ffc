/// <reference lib="dom" />
/**
 * The primitive library and composed scenes as a person sees them in browser mode: a project
 * seeded by `thicket demo --small` (fitted models, extracted hybrid primitives, the mesh library,
 * composed test scenes). On the Primitives page: filter by class, preview a primitive in 3D (its
 * ellipsoids drawn), delete one, generate mesh primitives and extract hybrid ones from a fitted
 * model through the forms; on the Scenes page: open a composed scene's 3D view and pick a
 * placement — without console errors.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { PrimitiveInfo } from '../../src-main/api/contract';
import { CAN_RUN_BROWSER, SHOTS, canvasCoverage, expectProjectName, useAppSession } from '../helpers/app-session';
import { runCliOk } from '../helpers/cli';

const canvasAttr = (page: Page, testId: string, name: string) => page.getByTestId(testId).getAttribute(`data-${name}`);

describe.skipIf(!CAN_RUN_BROWSER)('browser mode: the primitive library and a composed scene in 3D', () => {
  const session = useAppSession('thicket-e2e-prim-', { api: true });
  let demo: { experiment: { scenes: { testHybrid: number } } };

  beforeAll(async () => {
    const { api } = session;
    const path = join(session.dir, 'library.thicket');
    demo = runCliOk(['demo', '--project', path, '--small', '--json']).json as typeof demo;
    await api.call('project.open', { path });
  }, 180_000);

  it('filters, previews and deletes primitives, then shows a composed scene in 3D', async () => {
    const { page, api } = session;
    const library = await api.call('primitives.list', {});
    // The hybrid primitive with the most ellipsoids, and the primitives of its class.
    const subject = library.filter((p) => p.library === 'hybrid').sort((a, b) => b.counts.ellipsoids - a.counts.ellipsoids)[0]!;
    expect(subject.counts.ellipsoids).toBeGreaterThan(0);
    const sameClass = library.filter((p) => p.class === subject.class);

    await page.goto(session.url);
    await expectProjectName(page, 'library');
    await page.getByTestId('nav-primitives').click();
    await page.getByTestId('primitives-view').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('primitives-count').textContent(), { timeout: 15_000 }).toContain(`${library.length} primitives`);

    // Filter by the subject's class: only its rows remain.
    await page.getByTestId('filter-class').click();
    await page.locator('.n-base-select-option', { hasText: new RegExp(`^${subject.label} \\(`) }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('primitives-count').textContent(), { timeout: 10_000 }).toContain(`${sameClass.length} of ${library.length}`);
    const classes = await page.getByTestId('primitive-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-class')));
    expect(classes.length).toBeGreaterThan(0);
    expect(new Set(classes)).toEqual(new Set([subject.label]));

    // Preview it: the ellipsoids are drawn on the canvas.
    await page.locator(`[data-testid="primitive-row"][data-primitive-id="${subject.id}"]`).click();
    await page.getByTestId('primitive-facts').waitFor({ timeout: 10_000 });
    await expect.poll(() => canvasAttr(page, 'primitive-canvas', 'ready'), { timeout: 30_000 }).toBe('true');
    expect(Number(await canvasAttr(page, 'primitive-canvas', 'ellipsoids'))).toBe(subject.counts.ellipsoids);
    await page.getByTestId('layer-points').click();
    await expect.poll(async () => Number(await canvasAttr(page, 'primitive-canvas', 'points')), { timeout: 10_000 }).toBe(subject.counts.points);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SHOTS, 'e2e-primitives.png') });
    expect((await canvasCoverage(page, 'primitive-canvas')).differing).toBeGreaterThan(0.002);

    // Delete one mesh primitive of the list (checkbox, then confirm).
    await page.getByTestId('filter-library').getByText('Mesh').click();
    await page.getByTestId('filter-reset').waitFor();
    const victim: PrimitiveInfo = library.find((p) => p.library === 'mesh' && p.class === subject.class) ?? library.find((p) => p.library === 'mesh')!;
    if (victim.class !== subject.class) {
      await page.getByTestId('filter-reset').click();
      await page.getByTestId('filter-library').getByText('Mesh').click();
    }
    const row = page.locator(`[data-testid="primitive-row"][data-primitive-id="${victim.id}"]`);
    await row.locator('.n-checkbox').click();
    await page.getByTestId('primitive-delete').click();
    await page.getByTestId('primitive-delete-confirm').click();
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(0);
    const after = await api.call('primitives.list', {});
    expect(after.length).toBe(library.length - 1);
    expect(after.some((p) => p.id === victim.id)).toBe(false);

    // Generate a small mesh library from the drawer (synchronous): the list grows by what it made.
    await page.getByTestId('filter-reset').click();
    await page.getByTestId('mesh-open').click();
    await page.getByTestId('mesh-variants').fill('1');
    await page.getByTestId('mesh-submit').click();
    await page.getByTestId('mesh-result').waitFor({ timeout: 15_000 });
    const made = Number(/Generated (\d+)/.exec((await page.getByTestId('mesh-result').textContent()) ?? '')?.[1]);
    expect(made).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('primitives-count').textContent(), { timeout: 10_000 }).toContain(`${after.length + made} primitives`);
    await page.keyboard.press('Escape');

    // Extract from the training model (its log's own annotation): the drawer follows the job to its result.
    await page.getByTestId('extract-open').click();
    await page.getByTestId('extract-submit').click();
    await expect.poll(() => page.getByTestId('extract-job').getAttribute('data-state'), { timeout: 120_000 }).toBe('done');
    await expect.poll(() => page.getByTestId('extract-result').textContent(), { timeout: 10_000 }).toMatch(/^\s*\d+ primitives from \d+ segments/);
    const extracted = (await api.call('primitives.list', {})).length - after.length - made;
    expect(extracted).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('primitives-count').textContent(), { timeout: 10_000 }).toContain(`${after.length + made + extracted} primitives`);
    await page.keyboard.press('Escape');

    // The composed hybrid test scene in 3D: ground triangles and ellipsoids, and its placements.
    const sceneId = demo.experiment.scenes.testHybrid;
    await page.getByTestId('nav-scenes').click();
    await page.locator(`[data-testid="scene-row"][data-scene-id="${sceneId}"]`).click();
    await page.getByTestId('scene-view-3d').click();
    await page.getByTestId('scene-viewer').waitFor({ timeout: 10_000 });
    await expect.poll(() => canvasAttr(page, 'scene-canvas', 'ready'), { timeout: 60_000 }).toBe('true');
    expect(Number(await canvasAttr(page, 'scene-canvas', 'triangles'))).toBeGreaterThan(100);
    expect(Number(await canvasAttr(page, 'scene-canvas', 'ellipsoids'))).toBeGreaterThan(10);
    const placements = page.getByTestId('placement-row');
    await expect.poll(() => placements.count(), { timeout: 10_000 }).toBeGreaterThan(1);
    await page.waitForTimeout(300);
    expect((await canvasCoverage(page, 'scene-canvas')).differing).toBeGreaterThan(0.002);
    await placements.first().click();
    await page.getByTestId('placement-clear').waitFor({ timeout: 5_000 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SHOTS, 'e2e-scene-viewer.png') });
    expect(session.errors).toEqual([]);
  });
});
