import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { type DemoDatabaseCase, demoDatabases, type RunningDemo, serveDemo } from './harness.js';

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

/** The SQLite demo served on loopback and a Chromium to drive it, valid inside the tests. */
export interface DemoInChromium {
  readonly handle: Awaited<ReturnType<DemoDatabaseCase['open']>>;
  readonly demo: RunningDemo;
  readonly browser: Browser;
}

/**
 * Registers the hooks of a describe block that drives the demo (SQLite, path versioning) in
 * Chromium, and returns the fixture its tests read once `beforeAll` has run.
 */
export function demoInChromium(): DemoInChromium {
  const sqlite = demoDatabases().find((d) => d.name === 'sqlite')!;
  const fixture: { -readonly [K in keyof DemoInChromium]?: DemoInChromium[K] } = {};
  beforeAll(async () => {
    fixture.handle = await sqlite.open();
    fixture.demo = await serveDemo(fixture.handle, 'path');
    fixture.browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await fixture.browser?.close();
    await fixture.demo?.close();
    await fixture.handle?.cleanup();
  });
  return fixture as DemoInChromium;
}
