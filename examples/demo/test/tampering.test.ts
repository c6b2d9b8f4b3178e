import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { demoDatabases, type RunningDemo, serveDemo } from './harness.js';
import { rawGet } from './http-client.js';

interface Page {
  next: string | null;
  previous: string | null;
  results: Array<{ id: number }>;
}

const ORDERINGS = ['', 'rating', '-rating', 'title', '-published_at,id'];

/** Real cursors of the feed: a few pages deep in several orderings, signed or not. */
async function harvest(demo: RunningDemo): Promise<Array<{ ordering: string; cursor: string }>> {
  const found: Array<{ ordering: string; cursor: string }> = [];
  for (const ordering of ORDERINGS) {
    let url: string | null =
      `${demo.base}/v1/articles/feed/?page_size=7${ordering ? `&ordering=${ordering}` : ''}`;
    for (let i = 0; i < 6 && url; i += 1) {
      const page = (await (await fetch(url)).json()) as Page;
      for (const link of [page.next, page.previous]) {
        const cursor = link === null ? null : new URL(link).searchParams.get('cursor');
        if (cursor) found.push({ ordering, cursor });
      }
      url = page.next;
    }
  }
  return found;
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** One tampering of a token: a bit flip, a truncation, an extension or a splice. */
function tamper(token: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.tuple(fc.nat(token.length - 1), fc.integer({ min: 0, max: 5 })).map(([at, bit]) => {
      const index = BASE64URL.indexOf(token[at]!);
      const flipped = index < 0 ? 'A' : BASE64URL[index ^ (1 << bit)]!;
      return token.slice(0, at) + flipped + token.slice(at + 1);
    }),
    fc.nat(token.length - 1).map((n) => token.slice(0, n)),
    fc
      .string({ unit: fc.constantFrom(...BASE64URL, '.'), minLength: 1, maxLength: 12 })
      .map((tail) => token + tail),
    fc
      .tuple(
        fc.nat(token.length - 1),
        fc.string({ unit: fc.constantFrom(...BASE64URL), minLength: 1, maxLength: 4 }),
      )
      .map(([at, text]) => token.slice(0, at) + text + token.slice(at)),
  );
}

/** Cursors forged by someone who read the format: SQL and wrong types inside a well-formed body. */
function forged(sample: string): string[] {
  const body = JSON.parse(Buffer.from(sample.split('.')[0]!, 'base64url').toString()) as { k: string };
  const values: unknown[][] = [
    ["s' OR 1=1 --", 5],
    ['s2024-01-01T00:00:00.000Z; DROP TABLE articles', 5],
    ['d1700000000000', 's1 OR 1=1'],
    [12, 5],
    [true, 5],
    ['b99999999999999999999999999', 5],
    [null, null],
    ['d-99999999999999', 1],
    ['s', 's'],
    [{}, []],
  ];
  return values.map((p) => Buffer.from(JSON.stringify({ k: body.k, p })).toString('base64url'));
}

describe.each(demoDatabases())('cursor tampering, demo on $name', (database) => {
  let handle: Awaited<ReturnType<typeof database.open>>;
  let plain: RunningDemo;
  let signed: RunningDemo;

  beforeAll(async () => {
    handle = await database.open();
    plain = await serveDemo(handle, 'path');
    signed = await serveDemo(handle, 'path', { cursorSecret: 'test secret' });
  }, 120_000);

  afterAll(async () => {
    await plain?.close();
    await signed?.close();
    await handle?.cleanup();
  });

  const feed = (demo: RunningDemo, cursor: string, ordering: string) =>
    rawGet(
      demo.port,
      `/v1/articles/feed/?page_size=7&cursor=${encodeURIComponent(cursor)}${ordering ? `&ordering=${ordering}` : ''}`,
      {
        host: `localhost:${demo.port}`,
      },
    );

  test('unsigned: tampered and forged cursors never cause a 500 or a database error', async () => {
    const cursors = await harvest(plain);
    expect(cursors.length).toBeGreaterThan(40);
    const statuses = new Map<number, number>();
    let tried = 0;
    for (const { ordering, cursor } of cursors) {
      const variants = [
        ...fc.sample(tamper(cursor), 25),
        ...forged(cursor),
        // The same cursor under another ordering, or on the signed endpoint.
        ...ORDERINGS.filter((o) => o !== ordering).map((o) => `${cursor}|${o}`),
      ];
      for (const variant of variants) {
        const [token, other] = variant.split('|') as [string, string | undefined];
        const answer = await feed(plain, token, other ?? ordering);
        tried += 1;
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        expect([200, 404], `${answer.status} for ${variant}: ${answer.body.slice(0, 200)}`).toContain(
          answer.status,
        );
        if (answer.status === 404) expect(JSON.parse(answer.body)).toEqual({ detail: 'Invalid cursor' });
        if (other !== undefined) expect(answer.status).toBe(404);
      }
    }
    console.log(
      `tampered cursors tried on ${database.name} (unsigned): ${tried}, ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
  }, 120_000);

  test('signed: every tampered, forged, unsigned or foreign cursor is 404 Invalid cursor', async () => {
    const cursors = await harvest(signed);
    const unsignedCursors = await harvest(plain);
    let tried = 0;
    for (const { ordering, cursor } of cursors) {
      expect((await feed(signed, cursor, ordering)).status).toBe(200);
      // An empty cursor is DRF's first page, not a tampered one.
      const variants = fc
        .sample(tamper(cursor), 25)
        .filter((variant) => variant !== cursor && variant !== '');
      for (const variant of [...variants, ...forged(cursor)]) {
        const answer = await feed(signed, variant, ordering);
        tried += 1;
        expect(answer.status, `${answer.status} for ${variant}`).toBe(404);
        expect(JSON.parse(answer.body)).toEqual({ detail: 'Invalid cursor' });
      }
    }
    for (const { ordering, cursor } of unsignedCursors) {
      tried += 1;
      expect((await feed(signed, cursor, ordering)).status).toBe(404);
    }
    console.log(`tampered cursors tried on ${database.name} (signed): ${tried}, all 404`);
  }, 120_000);

  test('cursors longer than 1 KB are refused before decoding', async () => {
    const { cursor } = (await harvest(plain))[0]!;
    const long = cursor + 'A'.repeat(1100 - cursor.length);
    const answer = await feed(plain, long, '');
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toEqual({ detail: 'Invalid cursor' });
  });
});
