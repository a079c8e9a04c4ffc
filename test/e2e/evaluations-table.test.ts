/// <reference lib="dom" />
/**
 * Every evaluation in one table, as a user uses it: the small demo's test drive simulated in
 * physics and mesh mode and evaluated; *All evaluations…* lists both under their scene and
 * simulator, sorts by F1, exports CSV (read back here) and opens a row. Screenshot:
 * test-results/e2e-evaluations-table.png.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CAN_RUN_BROWSER, SHOTS, expectProjectName, useAppSession } from '../helpers/app-session';

describe.skipIf(!CAN_RUN_BROWSER)('browser mode: all evaluations in one table', () => {
  const session = useAppSession('thicket-e2e-evaluations-table-', { api: true });
  const evaluationIds: number[] = [];

  beforeAll(async () => {
    const { api } = session;
    await api.call('project.create', { path: join(session.dir, 'table.thicket') });
    const demo = await api.waitForJob((await api.call('demo.create', { small: true, seed: 4 })).job.id, 120_000);
    const drives = await api.waitForJob(Number(demo.result!.drivesJob), 120_000);
    const result = drives.result as unknown as { site: { scene: number }; logs: { log: number }[] };
    const test = result.logs[1]!.log;
    for (const mode of ['physics', 'mesh'] as const) {
      const sim = await api.call('simulate.start', { sceneId: result.site.scene, profileId: 'hdl32e', mode, seed: 7, trajectory: { kind: 'log', logId: test } });
      const run = Number((await api.waitForJob(sim.job.id, 120_000)).result!.run);
      const ev = await api.call('evaluate.start', { realLogId: test, runId: run });
      evaluationIds.push(Number((await api.waitForJob(ev.job.id, 120_000)).result!.evaluation));
    }
  }, 300_000);

  it('lists, sorts, exports and opens', async () => {
    const { page } = session;
    await page.goto(session.url);
    await expectProjectName(page, 'table');
    await page.getByTestId('nav-evaluation').click();
    await page.getByTestId('table-open').click();
    const rows = page.getByTestId('table-row');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
    const text = await page.getByTestId('evaluations-table').textContent();
    expect(text).toContain('physics');
    expect(text).toContain('mesh');
    expect(text).toContain('Point-cloud error (m)');
    // Sort by F1, then the other way: each order follows the figures, and they are opposite.
    const f1s = async () => (await page.getByTestId('evaluations-table').locator('[data-testid="table-row"] td[data-col-key="f1"]').allTextContents()).map((t) => Number(t.replace(/[^\d.]/g, '')));
    const header = page.getByTestId('evaluations-table').locator('th[data-col-key="f1"]').first();
    await header.click();
    const first = await f1s();
    await header.click();
    const second = await f1s();
    expect(first[0]).not.toBe(first[1]); // physics and mesh differ
    expect(second).toEqual([...first].reverse());
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(SHOTS, 'e2e-evaluations-table.png') });

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('table-csv').click()]);
    const path = join(session.dir, 'evaluations.csv');
    await download.saveAs(path);
    const csv = readFileSync(path, 'utf8').trim().split('\r\n');
    expect(csv[0]).toMatch(/^evaluation,scene,simulator,run,drive log,packets,precision,recall,F1,point-cloud error \(m\)/);
    expect(csv.slice(1).map((l) => Number(l.split(',')[0])).sort()).toEqual([...evaluationIds].sort());

    await rows.first().click();
    await expect.poll(() => page.getByTestId('evaluation-title').textContent(), { timeout: 15_000 }).toMatch(/vs/);
    expect(session.errors).toEqual([]);
  }, 300_000);
});
