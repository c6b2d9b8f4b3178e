import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium unless `CHROMIUM_PATH` names another. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Whether Chromium is installed. CI must have it (this throws there); elsewhere the browser
 * tests skip, saying so.
 */
export function chromiumAvailable(suite: string): boolean {
  const available = existsSync(CHROMIUM);
  if (!available && process.env.CI)
    throw new Error(`CI needs Chromium at ${CHROMIUM} (apt-get install chromium)`);
  if (!available) console.warn(`${suite} skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
  return available;
}

/** Headless Chromium with what a container needs (no sandbox, no GPU, no background traffic). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
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
