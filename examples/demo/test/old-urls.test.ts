import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDemoApp } from '../src/app.js';
import type { DemoDatabaseHandle } from '../src/database.js';
import { type AppAnswer, type AppExchange, appFetch, openSqliteDemo } from './harness.js';

// The old URLs (/v1/, /v2/) answer exactly as they did before the demo served its articles through
// version changes (issue 39): each request's status, headers and body, recorded from the demo of
// hand-written v1/v2 serializers into fixtures/old-urls.json (PAGEWISE_RECORD_OLD_URLS=1 records
// it again). The one header allowed in addition is `Api-Version`, which every response served
// through a bundle carries: it must name the path's version. On Kysely and on ORM=drizzle alike.

const FIXTURE = new URL('./fixtures/old-urls.json', import.meta.url).pathname;
const TOKEN = 'old-urls-token';
const NOW = () => new Date('2026-07-01T00:00:00Z');

type Exchange = AppExchange;
type Answer = AppAnswer;

const json = { 'content-type': 'application/json' };
const token = { authorization: `Token ${TOKEN}` };

/** Reads of every kind, then writes (in this order: the writes' ids depend on it). */
function exchanges(): Exchange[] {
  const reads = (v: string): Exchange[] =>
    [
      `/${v}/`,
      `/${v}/articles/`,
      `/${v}/articles/?page=2&page_size=5`,
      `/${v}/articles/?page=last&page_size=3`,
      `/${v}/articles/?page=9999`,
      `/${v}/articles/?page_size=abc`,
      `/${v}/articles/17/`,
      `/${v}/articles/999999/`,
      `/${v}/articles/abc/`,
      `/${v}/articles/17.json`,
      `/${v}/articles/offset/?limit=3&offset=10`,
      `/${v}/articles/offset/?limit=2&offset=2998`,
      `/${v}/articles/feed/?page_size=3`,
      `/${v}/articles/feed/?page_size=3&ordering=rating`,
      `/${v}/articles/feed/?page_size=2&ordering=-title`,
      `/${v}/articles/feed/?cursor=garbage`,
      `/${v}/authors/`,
      `/${v}/authors/1/`,
      `/${v}/authors/99999/`,
      `/${v}/openapi.json`,
      `/${v}/articles/?format=api&page_size=2`,
    ].map((url) => ({ method: 'GET', url }));
  const writes = (v: string, created: number): Exchange[] => [
    { method: 'OPTIONS', url: `/${v}/articles/` },
    { method: 'OPTIONS', url: `/${v}/authors/`, headers: token },
    { method: 'HEAD', url: `/${v}/articles/17/` },
    { method: 'POST', url: `/${v}/authors/`, headers: json, body: '{"name":"X","email":"x@example.org"}' },
    {
      method: 'POST',
      url: `/${v}/authors/`,
      headers: { ...json, ...token },
      body: `{"name":"Ada ${v}","email":"ada-${v}@example.org"}`,
    },
    {
      method: 'POST',
      url: `/${v}/authors/`,
      headers: { ...json, ...token },
      body: '{"name":"","email":"not an email"}',
    },
    { method: 'POST', url: `/${v}/authors/`, headers: { ...json, ...token }, body: '{"name":' },
    {
      method: 'PATCH',
      url: `/${v}/authors/${created}/`,
      headers: { ...json, ...token },
      body: '{"email":"ada@example.net"}',
    },
    {
      method: 'PUT',
      url: `/${v}/authors/${created}/`,
      headers: { ...json, ...token },
      body: `{"name":"Ada ${v} Lovelace","email":"ada@example.com"}`,
    },
    { method: 'GET', url: `/${v}/authors/${created}/` },
    { method: 'DELETE', url: `/${v}/authors/1/`, headers: token },
    { method: 'DELETE', url: `/${v}/authors/${created}/`, headers: token },
    { method: 'GET', url: `/${v}/authors/${created}/` },
    { method: 'POST', url: `/${v}/articles/`, headers: { ...json, ...token }, body: '{}' },
  ];
  return [
    ...reads('v1'),
    ...reads('v2'),
    { method: 'GET', url: '/v3/articles/' },
    { method: 'GET', url: '/openapi.json' },
    ...writes('v1', 0),
    ...writes('v2', 0),
  ];
}

type Fetch = (exchange: Exchange) => Promise<Answer>;

/** Runs every exchange in order; the writes go to the author the first POST of each version created. */
async function run(fetch: Fetch): Promise<Array<Exchange & { answer: Answer }>> {
  const out: Array<Exchange & { answer: Answer }> = [];
  let created = 0;
  for (const exchange of exchanges()) {
    const url = exchange.url.replace('/authors/0/', `/authors/${created}/`);
    const answer = await fetch({ ...exchange, url });
    if (exchange.method === 'POST' && answer.status === 201)
      created = (JSON.parse(answer.body) as { id: number }).id;
    out.push({ ...exchange, url, answer });
  }
  return out;
}

/** A JSON text with every `oneOf` and the components sorted (by their JSON, by name). */
function inOrder(body: string): string {
  const sort = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sort);
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value).map(([key, field]) => {
      const sorted = sort(field);
      return [
        key,
        key === 'oneOf'
          ? (sorted as unknown[]).toSorted((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))
          : sorted,
      ] as const;
    });
    return Object.fromEntries(entries.toSorted(([a], [b]) => (a < b ? -1 : 1)));
  };
  return JSON.stringify(sort(JSON.parse(body)));
}

/** The path's version of a URL the demo's bundle serves (`null`: none is served). */
function servedVersion(exchange: Exchange, answer: Answer): string | null {
  const match = /^\/(v1|v2)\/(?!openapi\.json)/.exec(exchange.url);
  if (!match) return null;
  // Hono answers a HEAD with the GET's headers; a refused version is served by no bundle.
  return answer.status === 404 && answer.body.includes('Invalid version') ? null : match[1]!;
}

for (const orm of ['kysely', 'drizzle'] as const) {
  describe(`[${orm}] /v1/ and /v2/ answer as they did before version changes`, () => {
    let database: DemoDatabaseHandle & { cleanup(): Promise<void> };
    let fetch: Fetch;

    beforeAll(async () => {
      database = await openSqliteDemo(orm);
      const app = await createDemoApp({
        db: database.db,
        ...(orm === 'drizzle' ? { drizzle: database.drizzle } : {}),
        writeToken: TOKEN,
        now: NOW,
      });
      fetch = appFetch(app);
    }, 120_000);
    afterAll(async () => {
      await database?.cleanup();
    });

    test('byte for byte: status, headers (Api-Version added) and body of each recorded request', async () => {
      const answers = await run(fetch);
      if (process.env.PAGEWISE_RECORD_OLD_URLS === '1' && orm === 'kysely') {
        writeFileSync(FIXTURE, `${JSON.stringify(answers, null, 1)}\n`);
      }
      const recorded = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Array<Exchange & { answer: Answer }>;
      expect(answers.map(({ method, url }) => `${method} ${url}`)).toEqual(
        recorded.map(({ method, url }) => `${method} ${url}`),
      );
      for (const [index, { answer, ...exchange }] of answers.entries()) {
        const { 'api-version': apiVersion, ...headers } = answer.headers;
        const label = `${exchange.method} ${exchange.url}`;
        expect(apiVersion, `${label}: Api-Version`).toBe(servedVersion(exchange, answer) ?? undefined);
        if (exchange.url === '/openapi.json') {
          // Not an old URL: the document of every version lists the bundle's versions newest first
          // (`oneOf` [v2, v1]) where perVersion listed v1 first. The same document otherwise.
          expect({ ...answer, headers, body: inOrder(answer.body) }, label).toEqual({
            ...recorded[index]!.answer,
            body: inOrder(recorded[index]!.answer.body),
          });
          continue;
        }
        expect({ ...answer, headers }, label).toEqual(recorded[index]!.answer);
      }
    }, 120_000);
  });
}
