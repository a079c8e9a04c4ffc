/// <reference lib="dom" />
/**
 * The demo card as a new user meets it in browser mode (no recent projects): Small, Create,
 * Cancel while it builds — the card says nothing was kept and no Demo.thicket is left — then
 * Try again through the small demo with the Table 4.3 experiment to its result, the project's
 * counts showing the experiment's models and evaluations. Screenshots: test-results/e2e-demo-card-*.png.
 */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { CAN_RUN_BROWSER, SHOTS, useAppSession } from '../helpers/app-session';

const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `e2e-demo-card-${name}.png`) });
const cardState = (page: Page) => page.getByTestId('demo-card').getAttribute('data-state');

describe.skipIf(!CAN_RUN_BROWSER)('browser mode: the demo card', () => {
  const session = useAppSession('thicket-e2e-demo-card-', { api: true });

  it('cancels leaving no file, then builds the small demo with its experiment', async () => {
    const { page, api } = session;
    const info = (await api.call('app.info', {})) as { defaultProjectDir: string };
    const demoPath = join(info.defaultProjectDir, 'Demo.thicket');
    await page.goto(session.url);
    const card = page.getByTestId('demo-card');
    await card.waitFor({ timeout: 15_000 });
    expect(await cardState(page)).toBe('idle');
    await page.getByTestId('demo-small').click();
    await shot(page, 'idle');

    await page.getByTestId('create-demo').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="demo-card"]')?.getAttribute('data-state') === 'running');
    await page.getByTestId('demo-cancel').click({ timeout: 15_000 });
    await page.waitForFunction(() => document.querySelector('[data-testid="demo-card"]')?.getAttribute('data-state') === 'cancelled', undefined, { timeout: 60_000 });
    expect(await page.getByTestId('demo-result').textContent()).toContain('Nothing was kept');
    expect(existsSync(demoPath)).toBe(false);
    expect(await page.locator('.n-alert').count()).toBe(0); // no error on the way
    await shot(page, 'cancelled');

    await page.getByTestId('demo-retry').click();
    expect(await cardState(page)).toBe('idle');
    await page.getByTestId('create-demo').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="demo-card"]')?.getAttribute('data-state') === 'running');
    // The experiment's steps show on the card as they go.
    await page.waitForFunction(() => document.querySelector('[data-testid="demo-card"]')?.getAttribute('data-phase') === 'experiment', undefined, { timeout: 120_000 });
    expect(await page.getByTestId('demo-step').textContent()).toMatch(/fitting|extracting|composing|simulating/);
    await shot(page, 'running');
    await page.waitForFunction(() => ['done', 'failed', 'cancelled'].includes(document.querySelector('[data-testid="demo-card"]')?.getAttribute('data-state') ?? ''), undefined, { timeout: 600_000 });
    expect(await cardState(page)).toBe('done');
    expect(await page.getByTestId('demo-result').textContent()).toMatch(/F1 0\.\d{3}, point-cloud error 0\.\d{3} m/);
    expect(existsSync(demoPath)).toBe(true);
    await page.getByTestId('count-evaluations').waitFor();
    await page.waitForFunction(() => /^7/.test(document.querySelector('[data-testid="count-evaluations"] .value')?.textContent ?? ''), undefined, { timeout: 15_000 });
    await shot(page, 'done');
    await page.getByTestId('demo-open-evaluation').click();
    await page.waitForURL(/evaluation/);
  }, 900_000);
});
