/// <reference lib="dom" />
/**
 * The Sensors page in Chromium against browser mode (the built app in out/): built-ins listed
 * without a project, a beam pattern drawn, a calibration imported by path, a built-in duplicated
 * and edited, an invalid edit shown by field, Undo, Save.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';
import { BUILTIN_IDS } from '../../../src-common/builtin-profiles';
import { CAN_RUN_BROWSER, SHOTS, createProjectInUi, useAppSession } from '../../helpers/app-session';

describe.skipIf(!CAN_RUN_BROWSER)('Sensors page (browser mode)', () => {
  const session = useAppSession('thicket-sensors-e2e-');

  const detailIs = (id: string) =>
    session.page.waitForFunction((want) => document.querySelector('[data-testid=profile-detail]')?.getAttribute('data-profile-id') === want, id, { timeout: 20_000 });
  const drawn = () =>
    session.page.waitForFunction(() => document.querySelector('[data-testid=profile-beam-canvas]')?.getAttribute('data-ready') === 'true', null, { timeout: 30_000 });
  const pointCount = async () => Number(await session.page.getByTestId('profile-beam-canvas').getAttribute('data-point-count'));

  it('lists the built-ins and draws a beam pattern without a project', async () => {
    const { page } = session;
    await page.goto(session.url);
    await page.getByTestId('nav-sensors').click();
    await expect.poll(() => page.getByTestId('profile-row').count(), { timeout: 15_000 }).toBe(BUILTIN_IDS.length);
    await page.locator('[data-testid=profile-row][data-profile-id=hdl64e]').click();
    await detailIs('hdl64e');
    await drawn();
    expect(await pointCount()).toBeGreaterThan(10_000);
    const table = page.getByTestId('profile-param-table');
    await expect.poll(() => table.textContent()).toContain('Firing period: lower');
    expect(await table.getAttribute('data-editable')).toBe('false');
    expect(await page.getByTestId('profile-save').count()).toBe(0);
    await page.getByTestId('profile-beam-canvas').screenshot({ path: join(SHOTS, 'sensors-hdl64e.png') });
  });

  it('imports a calibration, duplicates a built-in, shows invalid edits by field, undoes and saves', async () => {
    const { page } = session;
    await createProjectInUi(page, session.dir, 'sensors');
    await page.getByTestId('nav-sensors').click();

    if (HAS_SHARED_DATA) {
      await page.getByTestId('profile-import-path').fill(dataFile('velodyne_calib/32db.yaml'));
      await page.getByTestId('profile-import-button').click();
      await detailIs('32db');
      await drawn();
      expect(await page.locator('[data-testid=profile-row][data-profile-id="32db"]').count()).toBe(1);
      // The Model choice states the sensor: the VLP-32C calibration taken as an HDL-32E.
      await page.getByTestId('profile-import-model').click();
      await page.keyboard.type('hdl32e');
      await page.keyboard.press('Enter');
      await page.getByTestId('profile-import-path').fill(dataFile('velodyne_calib/VeloView-VLP-32C.yaml'));
      await page.getByTestId('profile-import-button').click();
      await detailIs('veloview-vlp-32c');
      await expect.poll(() => page.locator('[data-testid=profile-row][data-profile-id="veloview-vlp-32c"]').textContent()).toContain('Velodyne HDL-32E (VeloView-VLP-32C.yaml)');
    }

    await page.locator('[data-testid=profile-row][data-profile-id=vlp16]').click();
    await detailIs('vlp16');
    await page.getByTestId('profile-duplicate').click();
    await detailIs('vlp16-copy');
    await drawn();
    expect(await page.getByTestId('profile-param-table').getAttribute('data-editable')).toBe('true');

    const rate = page.locator('[data-field-input="rotationHz"]');
    // The copy's table can re-render just after it is drawn and drop a first edit (seen once in
    // three full CI runs): enter the value until the page reports it.
    await expect
      .poll(async () => {
        await rate.fill('0');
        await rate.press('Tab');
        return page.getByTestId('profile-errors').isVisible();
      }, { timeout: 15_000 })
      .toBe(true);
    expect(await page.getByTestId('profile-errors').textContent()).toContain('rotationHz: expected a number greater than 0 and at most 200 Hz, got 0');
    await page.getByTestId('profile-save').click();
    await expect.poll(() => page.getByTestId('profile-errors').textContent()).toContain('Not saved');

    await page.getByTestId('profile-undo').click();
    await expect.poll(() => page.getByTestId('profile-errors').count(), { timeout: 10_000 }).toBe(0);
    const mountZ = page.locator('[data-field-input="mount.xyz[2]"]');
    await mountZ.fill('3');
    await mountZ.press('Tab');
    await page.getByTestId('profile-dirty').waitFor();
    await page.getByTestId('profile-save').click();
    await expect.poll(() => page.getByTestId('profile-dirty').count(), { timeout: 10_000 }).toBe(0);
    await drawn();
    await page.screenshot({ path: join(SHOTS, 'sensors-edited.png') });
    expect(session.errors).toEqual([]);
  });
});
