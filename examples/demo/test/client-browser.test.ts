import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { chromiumAvailable, demoInChromium } from './chromium.js';
import { feedIds, TEST_ARTICLES } from './harness.js';

const CLIENT_SOURCE = fileURLToPath(new URL('../../../packages/client/src/', import.meta.url));
const available = chromiumAvailable('client browser test');

/** What the page reports back from its walks. */
interface BrowserWalk {
  readonly ids: number[];
  readonly linkOnlyIds: number[];
  readonly failure: { isClientError: boolean; status: number; detail: string } | null;
  readonly nodeGlobals: string[];
}

/**
 * `@pagewise/client` in a real browser, not Node: its source, compiled to plain ES modules, is
 * served under `/__client/` on the demo's origin and imported by the page.
 */
describe.skipIf(!available)('@pagewise/client in headless Chromium against the demo', () => {
  const fixture = demoInChromium();

  test('walks the feed from a relative URL, walks through Link alone, rejects an unknown page with its detail', async () => {
    const { browser, demo, handle } = fixture;
    const expected = await feedIds(handle);
    const page = await browser.newPage();
    await page.route(`${demo.base}/__client/*.js`, async (route) => {
      const file = new URL(route.request().url()).pathname.replace('/__client/', '').replace(/\.js$/, '.ts');
      const source = readFileSync(`${CLIENT_SOURCE}${file}`, 'utf8');
      const { outputText } = ts.transpileModule(source, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      });
      await route.fulfill({ contentType: 'text/javascript', body: outputText });
    });
    await page.goto(`${demo.base}/v1/`);
    // A module script of the page imports the client (an import() inside evaluate would be rewritten by Vite).
    await page.addScriptTag({
      type: 'module',
      content: "import * as client from '/__client/index.js'; window.pagewiseClient = client;",
    });
    await page.waitForFunction(() => 'pagewiseClient' in window);

    const walk = await page.evaluate(async (): Promise<BrowserWalk> => {
      const client = (window as unknown as { pagewiseClient: typeof import('@pagewise/client') })
        .pagewiseClient;
      const ids: number[] = [];
      for await (const article of client.iterateResults<{ id: number }>('articles/feed/?page_size=100'))
        ids.push(article.id);
      // Drops `next` from bodies so only the Link header leads on.
      const linkOnly = async (input: string, init: RequestInit) => {
        const response = await fetch(input, init);
        const { next: _next, ...rest } = (await response.json()) as Record<string, unknown>;
        return new Response(JSON.stringify(rest), { status: response.status, headers: response.headers });
      };
      const linkOnlyIds: number[] = [];
      const offsets = client.iterateResults<{ id: number }>('/v1/articles/offset/?limit=100', {
        fetch: linkOnly,
      });
      for await (const article of offsets) linkOnlyIds.push(article.id);
      let failure: BrowserWalk['failure'] = null;
      try {
        for await (const _page of client.iteratePages('/v1/articles/?page=9999'))
          throw new Error('page 9999 exists');
      } catch (error) {
        failure = {
          isClientError: error instanceof client.PagewiseClientError,
          status: (error as { status: number }).status,
          detail: (error as { detail: string }).detail,
        };
      }
      const nodeGlobals = ['process', 'Buffer', 'require'].filter((name) => name in globalThis);
      return { ids, linkOnlyIds, failure, nodeGlobals };
    });

    expect(walk.nodeGlobals).toEqual([]);
    expect(walk.ids).toHaveLength(TEST_ARTICLES);
    expect(walk.ids).toEqual(expected);
    expect(walk.linkOnlyIds).toEqual(expected);
    expect(walk.failure).toEqual({ isClientError: true, status: 404, detail: 'Invalid page.' });
  });
});
