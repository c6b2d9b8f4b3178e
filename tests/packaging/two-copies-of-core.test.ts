import { cpSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as core from '@pagewise/core';
import { fromArray } from '@pagewise/memory-adapter';
import * as rest from '@pagewise/rest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

// A second, separate copy of core's modules, as when an adapter gets its own nested
// node_modules/@pagewise/core (another version, a hoisting accident): its classes are not the
// workspace copy's, so `instanceof` alone cannot recognise the other copy's errors.
const SOURCES = fileURLToPath(new URL('../../packages/core/src', import.meta.url));
let dir = '';
let other: typeof core;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pagewise-core-copy-'));
  cpSync(SOURCES, dir, { recursive: true, filter: (path) => !path.endsWith('.test.ts') });
  // Core's own dependencies (@noble/hashes), found from the copy as from the package.
  symlinkSync(realpathSync(join(SOURCES, '..', 'node_modules')), join(dir, 'node_modules'), 'dir');
  other = await import(pathToFileURL(join(dir, 'index.ts')).href);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A `next` cursor whose position values are strings where the adapter holds numbers. */
function tamper(link: string): string {
  const token = new URL(link).searchParams.get('cursor')!;
  const cursor = JSON.parse(Buffer.from(token, 'base64url').toString()) as { p: unknown[] };
  cursor.p = cursor.p.map(() => 'snot a number');
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

describe('two installed copies of @pagewise/core', () => {
  test('are really two copies', () => {
    expect(other.cursorPage).not.toBe(core.cursorPage);
    expect(new core.InvalidBoundError('memory', 'x')).not.toBeInstanceOf(other.InvalidBoundError);
  });

  test("a tampered cursor is 404 Invalid cursor when the adapter's core is another copy", async () => {
    // fromArray throws the workspace copy's InvalidBoundError; the paginator is the other copy's.
    const query = fromArray(
      [1, 2, 3, 4, 5].map((id) => ({ id })),
      { uniqueKey: 'id' },
    );
    const first = await other.cursorPage(query, 'http://localhost/items/', { pageSize: 2, ordering: 'id' });
    const url = `http://localhost/items/?cursor=${tamper(first.next!)}`;

    const failure = await other
      .cursorPage(query, url, { pageSize: 2, ordering: 'id' })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(other.NotFound);
    expect(failure).toMatchObject({ status: 404, detail: 'Invalid cursor' });
  });

  test("another copy's ApiError answers with its own status, not 500", async () => {
    const routes = new rest.Routes().add(
      '/items/',
      'items',
      rest.apiView(() => {
        throw new other.NotFound('No such item.');
      }),
    );
    const reported: unknown[] = [];
    const handle = rest.createFetchHandler({ routes, onError: (error) => reported.push(error) });
    const response = await handle(new Request('http://localhost/items/'));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ detail: 'No such item.' });
    expect(reported).toEqual([]);
  });

  test('errors carry a brand that either copy recognises', () => {
    expect(core.isApiError(new other.NotFound())).toBe(true);
    expect(core.isApiError(new other.ValidationError())).toBe(true);
    expect(core.isInvalidBoundError(new other.InvalidBoundError('kysely', 'x'))).toBe(true);
    expect(core.isConfigurationError(new other.ConfigurationError('x'))).toBe(true);
    expect(core.isApiError(new other.ConfigurationError('x'))).toBe(false);
    expect(core.isInvalidBoundError(new Error('InvalidBoundError'))).toBe(false);
    expect(core.isApiError({ status: 404, detail: 'x', code: 'not_found' })).toBe(false);
  });
});
