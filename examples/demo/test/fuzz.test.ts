import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { VERSIONING_NAMES, type VersioningName } from '../src/versioning.js';
import { demoDatabases, type RunningDemo, serveDemo } from './harness.js';
import { type RawAnswer, rawGet } from './http-client.js';

/** Requests per database; CI runs SQLite and Postgres, so over 20,000 in all. */
const REQUESTS = { sqlite: 20_000, postgres: 4_000 } as const;
const IN_FLIGHT = 24;
const ALLOWED = new Set([200, 400, 404, 406]);

const PATHS = [
  '/',
  '/articles/',
  '/articles/offset/',
  '/articles/feed/',
  '/authors/',
  '/articles/7/',
  '/authors/3/',
  // Ids outside the id column's type: 404 before any query (Postgres would answer an error).
  '/articles/2147483648/',
  '/articles/-1/',
  '/articles/99999999999999999999999/',
  '/authors/9223372036854775808/',
];
const KEYS = [
  'page',
  'page_size',
  'limit',
  'offset',
  'cursor',
  'ordering',
  'version',
  'format',
  'openapi',
  'q',
];

const sqlInjection = fc.constantFrom(
  "1' OR '1'='1",
  '1; DROP TABLE articles; --',
  "' UNION SELECT password FROM users --",
  'published_at; DELETE FROM articles',
  '-id,(select 1)',
  '1) OR (1=1',
  '$1',
  '?',
);
const numbers = fc.oneof(
  fc.integer().map(String),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.constantFrom(
    '0',
    '-0',
    '-1',
    '1e9',
    '1.5',
    'NaN',
    'Infinity',
    '0x10',
    '1_0',
    ' 7 ',
    '\u0661\u0662',
    '９',
    '99999999999999999999999',
  ),
);
const junk = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    'last',
    'LAST',
    '',
    ' ',
    'null',
    'undefined',
    '[]',
    '{}',
    'ordering',
    '-rating',
    'rating,-id',
    'v1',
    'v2',
    'v9',
  ),
);
const forgedCursor = fc.oneof(
  fc.base64String({ maxLength: 200 }),
  fc.json().map((json) => Buffer.from(json).toString('base64url')),
  fc
    .record({
      k: fc.string(),
      p: fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null)), { maxLength: 3 }),
    })
    .map((body) => Buffer.from(JSON.stringify(body)).toString('base64url')),
);
const value = fc.oneof(
  { weight: 3, arbitrary: numbers },
  { weight: 3, arbitrary: junk },
  sqlInjection,
  forgedCursor,
);

/** A component encoded properly, or left malformed on purpose. */
const encoded = (text: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 5, arbitrary: text.map(encodeURIComponent) },
    fc.constantFrom('%', '%zz', '%E0%A4', '%FF%FE', '%00', '%C0%AF', '%%32', 'a%2', '%uD800', '+%2B+'),
  );

const query = fc.array(
  fc.tuple(encoded(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 8 }))), encoded(value)),
  {
    maxLength: 6,
  },
);
const accept = fc.oneof(
  { weight: 4, arbitrary: fc.constant('application/json') },
  fc.constantFrom(
    '*/*',
    'text/html',
    'application/json; version=v2',
    'application/json; version=v9',
    'application/vnd.pagewise+json; version=v2',
    'application/json; VERSION="v2"',
    'text/html;q=0.9, application/json;q=0.1; version=v1',
    'image/png',
    ';;;',
    'application/json; version',
    'application/json; q=abc',
    '*/*; version=v2; q=0',
    '',
  ),
  fc.string({ maxLength: 60 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
);

interface FuzzRequest {
  readonly scheme: VersioningName;
  readonly path: string;
  /** The Host name without its port ('' leaves the header to the client). */
  readonly host: string;
  readonly headers: Record<string, string>;
}

function requestArbitrary(): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      scheme: fc.constantFrom(...VERSIONING_NAMES),
      version: fc.constantFrom('v1', 'v2', 'v3', '', '..', '%2e%2e'),
      path: fc.constantFrom(...PATHS),
      query,
      accept,
      host: fc.oneof(
        {
          weight: 6,
          arbitrary: fc.constantFrom(
            'localhost',
            '127.0.0.1',
            'v1.localhost',
            'v2.localhost',
            'v7.localhost',
          ),
        },
        fc.constantFrom('evil.example', 'localhost.evil.example', '', '[::1', 'a'.repeat(300)),
      ),
      forwarded: fc.option(fc.constantFrom('evil.example', 'localhost'), { freq: 4 }),
      // One 10 KB value at most: several would pass Node's 16 KiB limit on a request head,
      // which its HTTP parser answers (431) before any application code runs.
      big: fc.option(fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom('x', '9', '%41')), { freq: 8 }),
    })
    .map(({ scheme, version, path, query: pairs, accept: acceptHeader, host, forwarded, big }) => {
      const prefix = scheme === 'path' || scheme === 'namespace' ? `/${version}` : '';
      const all = big ? [...pairs, [big[0], big[1].repeat(10_240 / big[1].length)] as const] : pairs;
      const search = all.map(([k, v]) => `${k}=${v}`).join('&');
      const headers: Record<string, string> = { accept: acceptHeader };
      if (forwarded) headers['x-forwarded-host'] = forwarded;
      // '' leaves the Host header to the HTTP client (which sends 127.0.0.1:<port>).
      return { scheme, path: `${prefix}${path}${search ? `?${search}` : ''}`, host, headers };
    });
}

function checkAnswer(request: FuzzRequest, answer: RawAnswer): void {
  const where = `${request.scheme} GET ${request.path.slice(0, 300)} host=${request.host.slice(0, 100)} ${JSON.stringify(request.headers).slice(0, 300)}`;
  expect(ALLOWED.has(answer.status), `${answer.status} for ${where}: ${answer.body.slice(0, 300)}`).toBe(
    true,
  );
  const type = String(answer.headers['content-type'] ?? '');
  if (type.startsWith('application/json') && answer.status !== 200) {
    const body = JSON.parse(answer.body) as { detail?: unknown };
    expect(typeof body.detail, where).toBe('string');
  }
  // The 400 detail names the refused host, as Django's does; no link may ever point at it.
  expect(answer.body).not.toMatch(/\/\/[^/"\s]*evil\.example/);
  expect(String(answer.headers.link ?? '')).not.toMatch(/evil\.example/);
}

describe.each(demoDatabases())('HTTP fuzzing, demo on $name', (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  const demos = new Map<VersioningName, RunningDemo>();

  beforeAll(async () => {
    handle = await database.open();
    for (const name of VERSIONING_NAMES) demos.set(name, await serveDemo(handle, name, { maxOffset: 2000 }));
  }, 120_000);

  afterAll(async () => {
    for (const demo of demos.values()) await demo.close();
    await handle?.cleanup();
  });

  test('every answer is 200, 400, 404 or 406 with a JSON detail; the servers keep serving', async () => {
    const total = REQUESTS[database.name];
    const requests = fc.sample(requestArbitrary(), { numRuns: total, seed: 20261122 });
    const statuses = new Map<number, number>();
    for (let i = 0; i < requests.length; i += IN_FLIGHT) {
      const batch = requests.slice(i, i + IN_FLIGHT);
      const answers = await Promise.all(
        batch.map((request) => {
          const demo = demos.get(request.scheme)!;
          const host = request.host === '' ? {} : { host: `${request.host}:${demo.port}` };
          return rawGet(demo.port, request.path, { ...request.headers, ...host });
        }),
      );
      answers.forEach((answer, j) => {
        checkAnswer(batch[j]!, answer);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      });
    }
    const summary = [...statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ');
    console.log(`fuzzed ${total} requests on ${database.name}: ${summary}`);
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(total);
    for (const status of [200, 400, 404, 406]) expect(statuses.get(status) ?? 0).toBeGreaterThan(0);
    for (const demo of demos.values()) {
      const healthy = await rawGet(
        demo.port,
        demo === demos.get('path') || demo === demos.get('namespace') ? '/v1/articles/' : '/articles/',
        {
          host: `localhost:${demo.port}`,
        },
      );
      expect(healthy.status).toBe(200);
    }
  }, 300_000);
});
