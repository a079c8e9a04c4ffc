/// <reference lib="dom" />
/**
 * Simulating a drive log's own rays from a fitted model, as a person does it in browser mode: a
 * real three-scan Ouster capture imported with its calibration and poses, split into scans 1–2
 * and scan 3, and a model fitted to scans 1–2 (set up through the host's API); then on scan 3's
 * log view *Simulate this log's rays…* opens the Simulate dialog on *Log's rays* of that log, the
 * source is switched to the fitted model (a neighbour replay shows why it has no trail), *Simulate*
 * is followed in the dialog, and *Evaluate against …* opens the Evaluation page with the run and
 * the log picked; the evaluation pairs the run with the log ray for ray. Screenshots:
 * test-results/e2e-log-rays-*.png.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { CAN_RUN_BROWSER, SHOTS, expectProjectName, useAppSession } from '../helpers/app-session';
import { HAS_SHARED_DATA, dataFile } from '../helpers/shared-data';

const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `e2e-log-rays-${name}.png`) });

describe.skipIf(!CAN_RUN_BROWSER || !HAS_SHARED_DATA)("browser mode: a log's rays simulated from a fitted model, then evaluated", () => {
  const session = useAppSession('thicket-e2e-log-rays-', { api: true });
  let test = 0;
  let model = 0;

  beforeAll(async () => {
    const { api } = session;
    await api.call('project.create', { path: join(session.dir, 'rays.thicket') });
    const imported = await api.call('logs.importFile', {
      path: dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10_lb_n3.pcap'),
      calibrationPath: dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10.json'),
      posesPath: dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10_lb_n3_poses_kitti.txt'),
    });
    const log = Number((await api.waitForJob(imported.job.id, 120_000)).result!.log);
    const split = await api.waitForJob((await api.call('logs.split', { id: log, at: 3 })).job.id, 120_000);
    const [train, held] = (split.result as unknown as { logs: { log: number }[] }).logs;
    test = held!.log;
    const fit = await api.waitForJob((await api.call('fit.start', { logId: train!.log, seed: 1 })).job.id, 240_000);
    const replay = await api.waitForJob(Number(fit.result!.replayJob), 240_000);
    model = Number(replay.result!.model);
    expect(model).toBeGreaterThan(0);
  }, 600_000);

  it("simulates scan 3's rays in the model from its log view and evaluates the run ray for ray", async () => {
    const { page, api } = session;
    const testLog = await api.call('logs.get', { id: test });
    await page.goto(session.url);
    await expectProjectName(page, 'rays');
    await page.evaluate((id) => (window.location.hash = `#/logs/${id}`), test);
    await page.getByTestId('log-simulate').click();

    // The dialog opens on this log's rays, with the log's own profile (the profile left empty).
    const trajectory = page.getByTestId('simulate-trajectory');
    await trajectory.waitFor();
    await expect.poll(() => trajectory.locator('.n-radio-button--checked').textContent()).toBe("Log's rays");
    await expect.poll(() => page.getByTestId('simulate-rays-log').textContent()).toBe(testLog.name);
    // No scene in this project: the scene source cannot start, and says so.
    await expect.poll(() => page.getByTestId('simulate-reason').textContent()).toBe('Choose a scene');

    // A neighbour replay offers no trail, and the dialog says why.
    const source = page.getByTestId('simulate-source');
    await source.getByText('Neighbour replay').click();
    await expect.poll(() => page.getByTestId('simulate-trajectory-why').textContent()).toMatch(/^Trail: The neighbour simulator replays a drive log and has no scene trail/);
    expect(await trajectory.getByText('Trail').locator('xpath=ancestor::label').getAttribute('class')).toContain('n-radio-button--disabled');
    // It replays the training half by default, not the log whose rays are fired.
    await expect.poll(() => page.getByTestId('simulate-neighbour-log').textContent()).toMatch(/scans 1–2$/);
    await page.waitForTimeout(400); // the drawer's slide-in
    await shot(page, 'neighbour');

    await source.getByText('Fitted model').click();
    await expect.poll(() => page.getByTestId('simulate-model').textContent()).toContain(`(#${model})`);
    await expect.poll(() => page.getByTestId('simulate-trajectory-why').count()).toBe(0); // a model has its training drive as its trail
    await expect.poll(() => page.getByTestId('simulate-submit').isEnabled(), { timeout: 15_000 }).toBe(true);
    await page.waitForTimeout(400); // the drawer's slide-in
    await shot(page, 'dialog');

    await page.getByTestId('simulate-submit').click();
    const result = page.getByTestId('simulate-result');
    await result.waitFor({ timeout: 240_000 });
    await expect.poll(() => page.getByTestId('simulate-job').getAttribute('data-state')).toBe('done');
    const runLabel = (await page.getByTestId('simulate-open-run').textContent())!;
    const run = Number(/#(\d+)/.exec(runLabel)![1]);
    const info = await api.call('runs.get', { id: run });
    expect(info.params.raysFromLogId).toBe(test);
    expect(info.params.modelId).toBe(model);
    expect(info.packets).toBe(testLog.packets);
    expect(await result.textContent()).toBe(`Run #${run} pairs with the drive log “${testLog.name}”.`);
    await shot(page, 'done');

    // Straight to the Evaluation page, with the run and the log picked.
    await page.getByTestId('simulate-evaluate').click();
    await page.getByTestId('evaluation-view').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('evaluation-run').textContent(), { timeout: 15_000 }).toContain(`#${run} `);
    await expect.poll(() => page.getByTestId('evaluation-log').textContent()).toBe(`#${test} ${testLog.name}`);
    await page.getByTestId('evaluation-start').click();
    await page.getByTestId('evaluation-metrics').waitFor({ timeout: 120_000 });
    await expect.poll(() => page.getByTestId('evaluation-title').textContent(), { timeout: 15_000 }).toContain(testLog.name);
    await page.waitForTimeout(500);
    await shot(page, 'evaluation');

    // Every logged ray found its simulated twin: ray for ray, nothing left unpaired.
    const [evaluation] = await api.call('evaluations.list', { runId: run, realLogId: test });
    const m = evaluation!.metrics;
    expect(m.pairing).toBe('rays');
    expect(m.pairedFraction!.real).toBeCloseTo(1, 6);
    expect(m.pairedFraction!.sim).toBeCloseTo(1, 6);
    expect(m.rays!.real).toBe(m.rays!.sim);
    // A model of scans 1–2 predicts the held-out scan 3 (the real-data experiment reaches F1 ≈ 0.9).
    expect(m.f1).toBeGreaterThan(0.5);

    // The run's own view leads to the same evaluation form.
    await page.evaluate((id) => (window.location.hash = `#/runs/${id}`), run);
    await page.getByTestId('run-evaluate').click();
    await page.getByTestId('evaluation-view').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('evaluation-run').textContent(), { timeout: 15_000 }).toContain(`#${run} `);
    await expect.poll(() => page.getByTestId('evaluation-log').textContent()).toBe(`#${test} ${testLog.name}`);
    expect(session.errors).toEqual([]);
  }, 600_000);
});
