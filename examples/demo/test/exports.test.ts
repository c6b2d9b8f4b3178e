// The demo's streamed exports (issue 13) over real HTTP: every article once, by keyset, and a
// slow client holds the server back (backpressure) instead of the server queueing the table.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import type { OrderedQuery, WindowSpec } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import { Hono } from 'hono';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type DemoDatabaseHandle, ensureSeeded, openDatabase } from '../src/database.js';
import { articleExport, csvField } from '../src/exports.js';
import type { ArticleRow } from '../src/serializers.js';
import { demoDatabases, type RunningDemo, serveDemo, TEST_ARTICLES } from './harness.js';

describe.each(demoDatabases())('article exports on $name', (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let demo: RunningDemo;

  beforeAll(async () => {
    handle = await database.open();
    demo = await serveDemo(handle, 'path');
  });
  afterAll(async () => {
    await demo?.close();
    await handle?.cleanup();
  });

  const article = (id: number) =>
    handle.db.selectFrom('articles').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** The CSV export of a version after its header (checked), one line per article. */
  async function csvRecords(version: string, header: string): Promise<string[]> {
    const response = await fetch(`${demo.base}/${version}/articles/export.csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = (await response.text()).split('\r\n');
    expect(lines.shift()).toBe(header);
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(TEST_ARTICLES);
    return lines;
  }

  test('NDJSON: every article once, by id, as the table holds it', async () => {
    const response = await fetch(`${demo.base}/v1/articles/export.ndjson`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const lines = (await response.text()).split('\n');
    expect(lines.pop()).toBe('');
    const records = lines.map(
      (line) => JSON.parse(line) as { id: number; title: string; published_at: string },
    );
    expect(records.map((r) => r.id)).toEqual(Array.from({ length: TEST_ARTICLES }, (_, i) => i + 1));
    const row = await handle.db
      .selectFrom('articles')
      .selectAll()
      .where('id', '=', 1234)
      .executeTakeFirstOrThrow();
    expect(records[1233]).toMatchObject({ id: 1234, title: row.title, rating: row.rating });
    expect(new Date(records[1233]!.published_at).getTime()).toBe(new Date(row.published_at).getTime());
  });

  test('NDJSON under /v2/: v2 items (renamed fields, the author as an object)', async () => {
    const response = await fetch(`${demo.base}/v2/articles/export.ndjson`);
    expect(response.status).toBe(200);
    const lines = (await response.text()).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(TEST_ARTICLES);
    const record = JSON.parse(lines[1233]!) as Record<string, unknown>;
    const row = await handle.db
      .selectFrom('articles')
      .selectAll()
      .where('id', '=', 1234)
      .executeTakeFirstOrThrow();
    const author = await handle.db
      .selectFrom('authors')
      .selectAll()
      .where('id', '=', row.author_id)
      .executeTakeFirstOrThrow();
    expect(Object.keys(record)).toEqual(['id', 'headline', 'content', 'publishedAt', 'rating', 'author']);
    expect(record).toMatchObject({
      id: 1234,
      headline: row.title,
      content: row.body,
      rating: row.rating,
      author: { id: row.author_id, name: author.name },
    });
    expect(new Date(record.publishedAt as string).getTime()).toBe(new Date(row.published_at).getTime());
  });

  test('CSV under /v2/: the header follows the v2 fields', async () => {
    const lines = await csvRecords('v2', 'id,headline,content,publishedAt,rating,author.id,author.name');
    const first = await article(1);
    expect(lines[0]!.startsWith(`1,${first.title},"${first.body}",`)).toBe(true);
    expect(lines[0]!.split(',').at(-2)).toBe(String(first.author_id));
  });

  test('CSV: a header, then one RFC 4180 record per article', async () => {
    const lines = await csvRecords('v1', 'id,title,body,author_id,published_at,rating');
    const first = await article(1);
    // Bodies hold commas ("Article 1 on a, b, c, d."), so they are quoted.
    expect(lines[0]).toBe(
      `1,${first.title},"${first.body}",${first.author_id},${lines[0]!.split(',').at(-2)},${first.rating ?? ''}`,
    );
    expect(lines.map((line) => Number(line.split(',')[0]))).toEqual(
      Array.from({ length: TEST_ARTICLES }, (_, i) => i + 1),
    );
  });
});

test('csvField quotes what needs it and defuses formulas', () => {
  expect(csvField(null)).toBe('');
  expect(csvField(3)).toBe('3');
  expect(csvField('plain')).toBe('plain');
  expect(csvField('a, "b"\nc')).toBe('"a, ""b""\nc"');
  expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
  expect(csvField(-3)).toBe('-3');
});

describe('a slow client against the export', () => {
  const BODY = 10_000;
  let dir: string;
  let handle: DemoDatabaseHandle;
  let server: ReturnType<typeof serve>;
  let port: number;
  /** Rows the server has read from the database so far. */
  let fetchedRows = 0;

  /** The articles, counting what the export's statements return. */
  const counted = (): OrderedQuery<ArticleRow> => {
    const query = fromKysely(handle.db.selectFrom('articles').selectAll(), { db: handle.db });
    return new Proxy(query, {
      get(target, property) {
        if (property === 'fetch') {
          return async (window: WindowSpec) => {
            const rows = await target.fetch(window);
            fetchedRows += rows.length;
            return rows;
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pagewise-export-'));
    handle = await openDatabase(undefined, join(dir, 'demo.sqlite'));
    await ensureSeeded(handle, TEST_ARTICLES);
    // 10 KB bodies: a 30 MB export, far more than socket buffers hold.
    await sql`update articles set body = body || ${'x'.repeat(BODY)}`.execute(handle.db);
    const hono = new Hono();
    hono.get('/export.ndjson', () => articleExport('ndjson', { query: counted, batchSize: 50 }));
    server = serve({ fetch: hono.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await handle?.db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  test('a client that stops reading stops the statements; reading on gets every row', async () => {
    fetchedRows = 0;
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port, path: '/export.ndjson' }, resolve).on('error', reject);
    });
    let received = 0;
    const lines: string[] = [];
    let rest = '';
    response.setEncoding('utf8');
    response.on('data', (text: string) => {
      received += text.length;
      const parts = (rest + text).split('\n');
      rest = parts.pop()!;
      for (const line of parts) lines.push(line.slice(0, 20));
    });
    await new Promise((resolve) => response.once('data', resolve));
    response.pause();
    // Let the socket buffers fill, then watch the server for a while: it must stand still.
    await sleep(400);
    const stalled = fetchedRows;
    await sleep(800);
    expect(fetchedRows).toBe(stalled);
    const total = TEST_ARTICLES * BODY;
    // What the server read beyond what the client took sits in socket buffers and one batch:
    // a fraction of the export, not the export.
    expect(stalled * BODY).toBeLessThan(total / 3);
    expect((stalled - received / BODY) * BODY).toBeLessThan(16 * 1024 * 1024);
    response.resume();
    await new Promise((resolve) => response.once('end', resolve));
    expect(lines).toHaveLength(TEST_ARTICLES);
    expect(lines.map((line) => Number(/"id":(\d+)/.exec(line)![1]))).toEqual(
      Array.from({ length: TEST_ARTICLES }, (_, i) => i + 1),
    );
  });

  test('a client that goes away ends the walk', async () => {
    fetchedRows = 0;
    const request = http.get({ host: '127.0.0.1', port, path: '/export.ndjson' });
    const response = await new Promise<http.IncomingMessage>((resolve) => request.once('response', resolve));
    await new Promise((resolve) => response.once('data', resolve));
    request.destroy();
    await sleep(300);
    const after = fetchedRows;
    await sleep(500);
    expect(fetchedRows).toBe(after);
    expect(after).toBeLessThan(TEST_ARTICLES / 2);
  });
});
