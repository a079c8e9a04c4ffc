/// <reference lib="dom" />
/**
 * The real-data experiment as a person runs it in browser mode: a real three-scan capture
 * imported with its calibration and per-scan poses and split into scans 1–2 and scan 3 (set up
 * through the host's API), then on the Evaluation page: *Predict a log…* picks the two split logs
 * by default, *Run experiment* fits and simulates and evaluates, the table shows every simulator
 * and the self-check, and a row opens its evaluation on the page — without console errors.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { CAN_RUN_BROWSER, SHOTS, expectProjectName, useAppSession } from '../helpers/app-session';
import { HAS_SHARED_DATA, dataFile } from '../helpers/shared-data';

describe.skipIf(!CAN_RUN_BROWSER || !HAS_SHARED_DATA)('browser mode: predicting a held-out scan of a real capture', () => {
  const session = useAppSession('thicket-e2e-experiment-', { api: true });

  beforeAll(async () => {
    const { api } = session;
    await api.call('project.create', { path: join(session.dir, 'lb.thicket') });
    const imported = await api.call('logs.importFile', {
      path: dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10_lb_n3.pcap'),
      calibrationPath: dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10.json'),
      posesPath: dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10_lb_n3_poses_kitti.txt'),
    });
    const log = Number((await api.waitForJob(imported.job.id, 120_000)).result!.log);
    await api.waitForJob((await api.call('logs.split', { id: log, at: 3 })).job.id, 120_000);
  }, 300_000);

  it('runs the experiment from the Evaluation page and opens a row\'s evaluation', async () => {
    const { page } = session;
    await page.goto(session.url);
    await expectProjectName(page, 'lb');
    await page.getByTestId('nav-evaluation').click();
    await page.getByTestId('evaluation-view').waitFor({ timeout: 15_000 });
    await page.getByTestId('experiment-open').click();
    // Defaults: the older of the two newest logs trains, the newest is predicted.
    await expect.poll(() => page.getByTestId('experiment-train').textContent(), { timeout: 15_000 }).toContain('scans 1–2');
    await expect.poll(() => page.getByTestId('experiment-test').textContent(), { timeout: 15_000 }).toContain('scan 3');
    await page.getByTestId('experiment-submit').click();
    const table = page.getByTestId('experiment-table');
    await table.waitFor({ timeout: 240_000 });
    const cells = async (sim: string) => (await page.getByTestId(`experiment-row-${sim}`).first().locator('td').allTextContents()).map((t) => t.trim());
    const hybrid = await cells('hybrid'), mesh = await cells('mesh'), neighbour = await cells('neighbour');
    expect(await table.locator('tbody tr').count()).toBe(5); // four simulators and the self-check
    // The learned model predicts the held-out scan ahead of mesh primitives on F1 and point-cloud error.
    expect(Number(hybrid[3])).toBeGreaterThan(Number(mesh[3]));
    expect(Number(hybrid[4])).toBeLessThan(Number(mesh[4]));
    expect(Number(neighbour[3])).toBeGreaterThan(0.9);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SHOTS, 'e2e-real-experiment.png') });

    // A row opens its evaluation on the page.
    await page.getByTestId('experiment-row-hybrid').first().getByRole('button', { name: 'open' }).click();
    await expect.poll(() => page.getByTestId('evaluation-title').textContent(), { timeout: 15_000 }).toContain('scan 3');
    await page.getByTestId('evaluation-metrics').waitFor({ timeout: 15_000 });
    expect(session.errors).toEqual([]);
  }, 300_000);
});
