/** Headless Debian chromium through playwright-core, with the project's fixed flags. */
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.OPS_CHROMIUM ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
