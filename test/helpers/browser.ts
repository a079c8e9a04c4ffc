import { existsSync } from 'node:fs';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's Chromium (Playwright cannot download its own browser here). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);

if (!HAS_CHROMIUM) {
  const msg = `[thicket tests] ${CHROMIUM} is absent: install it with \`apt-get install -y chromium\``;
  // In CI a missing browser is a broken set-up, not a reason to skip.
  if (process.env.CI) throw new Error(msg);
  console.warn(`${msg}; end-to-end tests are skipped`);
}

export function launchChromium(profileDir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1440, height: 900 },
    // No --use-gl=swiftshader: it breaks WebGL2; the default software path works.
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
