import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { DEMO_LIFECYCLE } from '../src/versioning.js';
import { chromiumAvailable, demoInChromium } from './chromium.js';

const SCREENSHOT = fileURLToPath(new URL('../screenshot.png', import.meta.url));
const available = chromiumAvailable('browser test');

/** The ids listed in the browsable page's response body. */
async function idsOnPage(page: import('playwright-core').Page): Promise<number[]> {
  const body = (await page.locator('pre.response-body').textContent()) ?? '';
  return (JSON.parse(body) as { results: Array<{ id: number }> }).results.map((r) => r.id);
}

describe.skipIf(!available)('browsable demo in headless Chromium', () => {
  const fixture = demoInChromium();

  test('numbered pages: next and a page number follow their links and change the rows', async () => {
    const { browser, demo } = fixture;
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    await page.goto(`${demo.base}/v1/articles/`);
    expect(await page.title()).toBe('Article List');
    const first = await idsOnPage(page);
    expect(first).toHaveLength(20);
    await expect(page.locator('[aria-current="page"]').first().textContent()).resolves.toBe('1');

    await page.getByRole('link', { name: 'Next page' }).first().click();
    await page.waitForURL(`${demo.base}/v1/articles/?page=2`);
    const second = await idsOnPage(page);
    expect(second).toHaveLength(20);
    expect(second.some((id) => first.includes(id))).toBe(false);
    await expect(page.locator('[aria-current="page"]').first().textContent()).resolves.toBe('2');

    await page.getByRole('link', { name: 'Page 3', exact: true }).first().click();
    await page.waitForURL(`${demo.base}/v1/articles/?page=3`);
    const third = await idsOnPage(page);
    expect(Math.max(...third)).toBeLessThan(Math.min(...second));
    await page.screenshot({ path: SCREENSHOT, fullPage: false });

    await page.getByRole('link', { name: 'Previous page' }).first().click();
    await page.waitForURL(`${demo.base}/v1/articles/?page=2`);
    expect(await idsOnPage(page)).toEqual(second);
  });

  test('v1 pages carry the deprecation notice with its link; v2 pages none', async () => {
    const { browser, demo } = fixture;
    const page = await browser.newPage();
    await page.goto(`${demo.base}/v1/articles/`);
    const notice = page.getByRole('note');
    await expect(notice.textContent()).resolves.toBe(
      'API version "v1" is deprecated since 2026-06-01 and will be retired on 2030-01-01. More information',
    );
    expect(await notice.isVisible()).toBe(true);
    await expect(notice.getByRole('link', { name: 'More information' }).getAttribute('href')).resolves.toBe(
      DEMO_LIFECYCLE.v1!.link,
    );
    await page.goto(`${demo.base}/v2/articles/`);
    expect(await page.getByRole('note').count()).toBe(0);
  });

  test('API root: lists every list of the version as a link that opens it', async () => {
    const { browser, demo } = fixture;
    const page = await browser.newPage();
    await page.goto(`${demo.base}/v2/`);
    expect(await page.title()).toBe('Pagewise demo API');
    const root = JSON.parse((await page.locator('pre.response-body').textContent()) ?? '') as Record<
      string,
      string
    >;
    expect(root).toMatchObject({
      articles: `${demo.base}/v2/articles/`,
      authors: `${demo.base}/v2/authors/`,
      articles_feed: `${demo.base}/v2/articles/feed/`,
    });
    await page.getByRole('link', { name: `${demo.base}/v2/authors/`, exact: true }).click();
    await page.waitForURL(`${demo.base}/v2/authors/`);
    expect(await page.title()).toBe('Author List');
    const authors = JSON.parse((await page.locator('pre.response-body').textContent()) ?? '') as Array<{
      url: string;
      displayName: string;
    }>;
    expect(authors.length).toBeGreaterThan(0);
    await page.getByRole('link', { name: authors[0]!.url, exact: true }).click();
    await page.waitForURL(authors[0]!.url);
    expect(await page.locator('pre.response-body').textContent()).toContain(authors[0]!.displayName);
  });

  test('cursor feed: next and previous controls walk the feed', async () => {
    const { browser, demo } = fixture;
    const page = await browser.newPage();
    await page.goto(`${demo.base}/v2/articles/feed/`);
    const first = await idsOnPage(page);
    expect(await page.locator('li.previous.disabled').count()).toBe(2);
    await page.getByRole('link', { name: 'Next page' }).first().click();
    await page.waitForURL(/\/v2\/articles\/feed\/\?cursor=[A-Za-z0-9_-]+$/);
    const second = await idsOnPage(page);
    expect(Math.max(...second)).toBeLessThan(Math.min(...first));
    await page.getByRole('link', { name: 'Previous page' }).first().click();
    await page.waitForURL(/cursor=/);
    expect(await idsOnPage(page)).toEqual(first);
  });
});
