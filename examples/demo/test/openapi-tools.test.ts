import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, expectTypeOf, test } from 'vitest';
import type { paths } from '../src/generated/openapi-v2.js';
import { demoDocument, typesOf } from '../src/openapi-types.js';
import { VERSIONING_NAMES, type VersioningName } from '../src/versioning.js';
import { demoDatabases, type RunningDemo, serveDemo, TEST_ARTICLES } from './harness.js';
import { expectCompiles, expectLintClean } from './openapi-lint.js';

// The tools API consumers run on the demo's documents: Redocly's linter, openapi-typescript and
// an openapi-fetch client, each against what the demo serves over HTTP.

const DEMO = new URL('..', import.meta.url).pathname;
const DOCUMENTS = ['/openapi.json', '/v1/openapi.json', '/v2/openapi.json'].flatMap((path) => [
  path,
  `${path}?openapi=3.0`,
]);

async function fetchJson(url: string): Promise<unknown> {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  return response.json();
}

describe('every document the demo serves', () => {
  const [sqlite] = demoDatabases();
  let handle: Awaited<ReturnType<NonNullable<typeof sqlite>['open']>>;
  const demos = new Map<VersioningName, RunningDemo>();
  const dir = mkdtempSync(join(tmpdir(), 'pagewise-openapi-tools-'));

  beforeAll(async () => {
    handle = await sqlite!.open();
    for (const name of VERSIONING_NAMES) demos.set(name, await serveDemo(handle, name));
  }, 120_000);

  afterAll(async () => {
    for (const demo of demos.values()) await demo.close();
    await handle?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  test('redocly lint (recommended rules, the demo config): 0 errors and 0 warnings on all 30', async () => {
    const files: string[] = [];
    for (const [name, demo] of demos) {
      for (const path of DOCUMENTS) {
        const file = join(dir, `${name}${path.replace(/[/?=.]/g, '_')}.json`);
        writeFileSync(file, JSON.stringify(await fetchJson(`${demo.base}${path}`)));
        files.push(file);
      }
    }
    // One CLI run for every document keeps this at a few seconds.
    await expectLintClean(files);
  }, 120_000);

  test('the config turns off only the two rules it gives reasons for', () => {
    const config = readFileSync(join(DEMO, 'redocly.yaml'), 'utf8');
    expect([...config.matchAll(/^ {2}([a-z0-9.-]+): off$/gm)].map((match) => match[1])).toEqual([
      'no-path-trailing-slash',
      'no-server-example.com',
    ]);
  });

  test('openapi-typescript: the types of each version and dialect compile under strict', async () => {
    const files: string[] = [];
    for (const version of ['v1', 'v2'] as const) {
      for (const openapi of ['3.1', '3.0'] as const) {
        const file = join(dir, `types-${version}-${openapi.replace('.', '')}.ts`);
        writeFileSync(
          file,
          await typesOf(
            await fetchJson(`${demos.get('path')!.base}/${version}/openapi.json?openapi=${openapi}`),
          ),
        );
        files.push(file);
      }
    }
    // A use of each file's types, so a broken shape cannot hide behind unused declarations.
    const use = join(dir, 'use.ts');
    writeFileSync(
      use,
      [
        "import type { components as V1 } from './types-v1-31.js';",
        "import type { components as V2 } from './types-v2-31.js';",
        "import type { components as V1Old } from './types-v1-30.js';",
        "import type { components as V2Old } from './types-v2-30.js';",
        "export const v1: V1['schemas']['Article']['title'] & V1Old['schemas']['Article']['title'] = 'a';",
        "export const v2: V2['schemas']['Article']['headline'] & V2Old['schemas']['Article']['headline'] = 'b';",
        '// @ts-expect-error: v2 articles have no title',
        "export const wrong: V2['schemas']['Article']['title'] = 'c';",
      ].join('\n'),
    );
    expectCompiles([...files, use]);
  }, 60_000);

  test('the committed v2 types are what openapi-typescript makes of the v2 document now', async () => {
    const committed = readFileSync(join(DEMO, 'src/generated/openapi-v2.ts'), 'utf8');
    expect(committed, 'run `pnpm --filter @pagewise/demo run openapi:types`').toBe(
      await typesOf(await demoDocument('v2')),
    );
  });
});

describe.each(demoDatabases())('a typed openapi-fetch client on $name', (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let demo: RunningDemo;

  beforeAll(async () => {
    handle = await database.open();
    demo = await serveDemo(handle, 'path');
  }, 120_000);

  afterAll(async () => {
    await demo?.close();
    await handle?.cleanup();
  });

  test('walks the whole v2 feed by its cursors, every article once, typed as v2 articles', async () => {
    const client = createClient<paths>({ baseUrl: demo.base });
    const seen = new Set<number>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { data, error, response } = await client.GET('/v2/articles/feed/', {
        params: { query: { page_size: 100, ...(cursor ? { cursor } : {}) } },
      });
      expect(error).toBeUndefined();
      expect(response.status).toBe(200);
      if (!data) throw new Error('no body');
      expectTypeOf(data.results[0]!.headline).toEqualTypeOf<string>();
      expectTypeOf(data.next).toEqualTypeOf<string | null>();
      for (const article of data.results) {
        expect(article.headline).toEqual(expect.any(String));
        expect(article).not.toHaveProperty('title');
        seen.add(article.id);
      }
      cursor = data.next === null ? undefined : (new URL(data.next).searchParams.get('cursor') ?? undefined);
      pages += 1;
    } while (cursor !== undefined && pages < 100);
    expect(pages).toBe(Math.ceil(TEST_ARTICLES / 100));
    expect(seen.size).toBe(TEST_ARTICLES);

    const bad = await client.GET('/v2/articles/feed/', { params: { query: { cursor: 'forged' } } });
    expect(bad.response.status).toBe(404);
    expect(bad.error).toEqual({ detail: 'Invalid cursor' });
  }, 60_000);
});
