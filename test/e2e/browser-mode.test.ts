/// <reference lib="dom" />
/**
 * The vertical slice, as a person does it, in Chromium against browser mode: open the app,
 * create a project, import the KITTI scan, watch the job's progress bar reach done, open the
 * log and check the viewport renders points (the screenshot is not blank).
 */
import { describe, expect, it } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticKitti } from '../helpers/temp';
import { HAS_SHARED_DATA, dataFile } from '../helpers/shared-data';
import { CAN_RUN_BROWSER, SHOTS, canvasCoverage, openAppWithNewProject, useAppSession, waitForJobRow } from '../helpers/app-session';

describe.skipIf(!CAN_RUN_BROWSER)('browser mode, end to end', () => {
  const session = useAppSession('thicket-e2e-');

  it('creates a project, imports the KITTI scan with a live progress bar, and shows it in the viewport', async () => {
    const { page } = session;
    const projectPath = await openAppWithNewProject(session, 'e2e');
    expect(existsSync(projectPath)).toBe(true);

    await page.getByTestId('nav-logs').click();
    let scan = dataFile('overlapnet_kitti/000000.bin');
    if (!HAS_SHARED_DATA) {
      scan = join(session.dir, '000000.bin');
      writeFileSync(scan, syntheticKitti(124_668));
    }
    // Record every progress value the bar shows while the job runs.
    await page.evaluate(() => {
      const seen: number[] = [];
      (window as unknown as { __progressSeen: number[] }).__progressSeen = seen;
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('[data-testid="job-progress"]')) {
          const v = Number(el.getAttribute('data-progress'));
          if (seen.at(-1) !== v) seen.push(v);
        }
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await page.getByTestId('import-file-input').setInputFiles(scan);

    const job = await waitForJobRow(page, null, 60_000);
    expect(await job.getAttribute('data-kind')).toBe('import');
    expect(Number(await job.getByTestId('job-progress').getAttribute('data-progress'))).toBe(1);
    const seen = await page.evaluate(() => (window as unknown as { __progressSeen: number[] }).__progressSeen);
    expect(seen.at(-1)).toBe(1);

    const row = page.getByTestId('log-row').first();
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('124');
    await row.click();
    await page.getByTestId('log-view').waitFor({ timeout: 15_000 });
    const canvas = page.getByTestId('viewport-canvas');
    await canvas.waitFor();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __thicketViewport?: { ready: boolean; pointCount: number } }).__thicketViewport), { timeout: 60_000 })
      .toMatchObject({ ready: true, pointCount: 124_668 });
    await page.waitForTimeout(500); // a few frames

    await page.screenshot({ path: join(SHOTS, 'e2e-log-view.png') });
    await canvas.screenshot({ path: join(SHOTS, 'e2e-viewport.png') });
    // Not blank: canvas pixels that differ from the background (the corner pixel).
    const stats = await canvasCoverage(page);
    expect(stats.differing).toBeGreaterThan(0.005); // points drawn
    expect(stats.colours).toBeGreaterThan(8); // coloured by height: many hues, not one flat colour
    expect(session.errors).toEqual([]);
  });

  it('shows a clear error for a bad project path and a malformed file, and leaves no log behind', async () => {
    const { page } = session;
    await page.getByTestId('nav-projects').click();
    await page.getByTestId('new-project-path').fill(join(session.dir, 'notes.txt'));
    await page.getByTestId('create-project').click();
    await expect.poll(() => page.getByTestId('error-alert').first().textContent(), { timeout: 10_000 }).toContain('.thicket');

    await page.getByTestId('nav-logs').click();
    const before = await page.getByTestId('log-row').count();
    const bad = join(session.dir, 'cut.bin');
    // Less than one 16-byte point: nothing to keep (a longer cut keeps its whole points, with a warning).
    writeFileSync(bad, syntheticKitti(1000).subarray(0, 11));
    await page.getByTestId('import-file-input').setInputFiles(bad);
    const failed = page.locator('[data-testid="job-row"][data-state="failed"]');
    await failed.first().waitFor({ state: 'attached', timeout: 30_000 }); // in the folded job list
    expect(await failed.first().textContent()).toContain('cut.bin');
    expect(await page.getByTestId('log-row').count()).toBe(before);
  });

  it('cancels a running import from the jobs panel; the log never appears', async () => {
    const { page } = session;
    await page.getByTestId('nav-logs').click();
    const before = await page.getByTestId('log-row').count();
    const big = join(session.dir, 'huge.bin');
    writeFileSync(big, syntheticKitti(16_000_000)); // 256 MB: seconds of work to cancel into
    await page.getByTestId('import-path').fill(big);
    await page.getByTestId('import-path-button').click();
    const row = page.locator('[data-testid="job-row"][data-kind="import"]').first();
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 20_000 }).toMatch(/queued|running/);
    await page.getByTestId('jobs-expand').click(); // the list stays folded until asked for
    await row.getByTestId('job-cancel').click();
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 30_000 }).toBe('cancelled');
    expect(await page.getByTestId('log-row').count()).toBe(before);
  });
});
