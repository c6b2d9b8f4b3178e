import { createContext, runInContext } from 'node:vm';
import type * as Memory from '@pagewise/memory-adapter';
import type * as Rest from '@pagewise/rest';
import { describe, expect, it } from 'vitest';
import { bundle, entryPoints, nodeGlobalReferences } from '../support/bundle.js';

// The engine and DRF's layer run unchanged on Node, Deno, Bun and Workers: every entry point of
// @pagewise/core and @pagewise/rest bundles for a neutral platform (a `node:` import does not
// resolve there) and refers to no Node global.

describe('runtime-neutral core', () => {
  it('the checker sees free Node globals and lets property reads through', () => {
    expect(
      nodeGlobalReferences(
        [
          'process.emitWarning(w);',
          'const b = Buffer.from("x");',
          'globalThis.process?.emitWarning?.(w);',
          'const o = { process: 1 }; o.process;',
        ].join('\n'),
      ),
    ).toEqual(['process: process.emitWarning(w);', 'Buffer: const b = Buffer.from("x");']);
  });

  it('a node: import does not bundle for a neutral platform', async () => {
    await expect(bundle("export { createHmac } from 'node:crypto';")).rejects.toThrow(/node:crypto/);
  });

  for (const entry of [...entryPoints('core'), ...entryPoints('rest')]) {
    it(`${entry}: bundles without Node built-ins and names neither process nor Buffer`, async () => {
      const { code, modules } = await bundle(`export * from '${entry}';`);
      expect(modules.length).toBeGreaterThan(0);
      expect(nodeGlobalReferences(code)).toEqual([]);
    });
  }

  it('serves a signed cursor walk in a context with Web globals only (no process, no Buffer)', async () => {
    const { code } = await bundle(
      "export * from '@pagewise/rest';\nexport { fromArray } from '@pagewise/memory-adapter';",
      { globalName: 'pagewise' },
    );
    // What a Worker offers: the language's own built-ins plus the Web APIs, nothing of Node.
    const context = createContext({
      URL,
      URLSearchParams,
      Headers,
      Request,
      Response,
      TextEncoder,
      TextDecoder,
      btoa,
      atob,
      console,
    });
    runInContext(code, context);
    expect(runInContext('[typeof process, typeof Buffer, typeof require]', context)).toEqual([
      'undefined',
      'undefined',
      'undefined',
    ]);
    const api = (context as { pagewise: typeof Rest & typeof Memory }).pagewise;
    const rows = Array.from({ length: 8 }, (_, i) => ({ id: i + 1, title: `t${(i * 5) % 8}` }));
    class Signed extends api.CursorPagination {
      override pageSize = 3;
      override ordering = 'title';
      override cursorSecret = 'worker secret';
    }
    const routes = new api.Routes().add(
      '/items/',
      'items',
      api.ListView.asView({
        queryset: () => api.fromArray(rows),
        paginationClass: Signed,
        versioningClass: null,
        serializer: (row: { id: number }) => row.id,
      }),
    );
    const handle = api.createFetchHandler({ routes, allowedHosts: ['worker.example'] });
    const seen: number[] = [];
    let url: string | null = 'https://worker.example/items/';
    while (url !== null) {
      const response = await handle(new Request(url));
      expect(response.status).toBe(200);
      const body = (await response.json()) as { next: string | null; results: number[] };
      seen.push(...body.results);
      url = body.next;
    }
    expect(seen).toEqual([...rows].sort((a, b) => a.title.localeCompare(b.title)).map((row) => row.id));
    const second = (await (await handle(new Request('https://worker.example/items/'))).json()) as {
      next: string;
    };
    const tampered = second.next.replace(
      /cursor=([^.]*)\.(.)/,
      (_, payload, first) => `cursor=${payload}.${first === 'A' ? 'B' : 'A'}`,
    );
    expect(tampered).not.toBe(second.next);
    const refused = await handle(new Request(tampered));
    expect([refused.status, await refused.json()]).toEqual([404, { detail: 'Invalid cursor' }]);
  });
});
