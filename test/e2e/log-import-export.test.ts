/// <reference lib="dom" />
/**
 * Import options and export in the browser, as a user does them: choose a sensor profile on the
 * Drive logs page so a hit-only scan gets its misses rebuilt, upload the scan, then export the
 * log to PCD from its row and find the file on the host.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticKitti } from '../helpers/temp';
import { CAN_RUN_BROWSER, SHOTS, openAppWithNewProject, useAppSession, waitForJobRow } from '../helpers/app-session';
import { decodePcd } from '../../src-worker/formats/pcd/pcd';

describe.skipIf(!CAN_RUN_BROWSER)('drive-log import options and export in the browser', () => {
  const session = useAppSession('thicket-e2e-io-');

  it('rebuilds misses with a chosen profile and exports the log to PCD', async () => {
    const { page } = session;
    await openAppWithNewProject(session, 'io');

    await page.getByTestId('nav-logs').click();
    await page.getByTestId('import-options').waitFor();
    // Profile: the HDL-64E, by typing into the filterable select.
    await page.getByTestId('import-profile').click();
    await page.keyboard.type('hdl64e');
    await page.getByText('(hdl64e)', { exact: false }).first().click();
    const scan = join(session.dir, 'sweep.bin');
    writeFileSync(scan, syntheticKitti(20_000));
    await page.getByTestId('import-file-input').setInputFiles(scan);

    await waitForJobRow(page, null, 60_000);
    const row = page.getByTestId('log-row').first();
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('20,000');
    // The Misses column is no longer 0: the misses were rebuilt from the HDL-64E pattern.
    const misses = Number((await row.getByTestId('log-misses').textContent())!.replace(/ \(.*$/, '').replace(/[^\d]/g, '')); // "12,345 (9.0 %)"
    expect(misses).toBeGreaterThan(1000);

    await row.getByTestId('log-export').click();
    await page.getByTestId('export-dialog').waitFor();
    const out = join(session.dir, 'sweep-export.pcd');
    await page.getByTestId('export-path').fill(out);
    await page.getByTestId('export-start').click();
    await page.getByTestId('export-dialog').waitFor({ state: 'hidden', timeout: 10_000 });
    await expect.poll(() => page.getByTestId('job-row').first().getAttribute('data-kind'), { timeout: 15_000 }).toBe('export');
    await expect.poll(() => page.getByTestId('job-row').first().getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
    expect(existsSync(out)).toBe(true);
    expect(decodePcd(readFileSync(out), 'sweep-export.pcd').count).toBe(20_000);
    await page.screenshot({ path: join(SHOTS, 'e2e-import-export.png') });
    expect(session.errors).toEqual([]);
  });
});
