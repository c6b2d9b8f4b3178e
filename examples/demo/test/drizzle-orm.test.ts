import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoApp } from '../src/app.js';
import { type DemoDatabaseHandle, ensureSeeded, openDatabase } from '../src/database.js';
import { appFetch, dropPostgres, freshPostgres, openSqliteDemo, TEST_ARTICLES } from './harness.js';

// `ORM=drizzle`: the demo's articles paged by fromDrizzle over drizzle-orm's own driver answer
// what fromKysely answers, byte for byte: page numbers, offsets, the cursor feed walked to its
// end under every ordering, details and their 404s.

type Fetch = (url: string) => Promise<{ status: number; link: string | null; body: string }>;

function handler(app: Awaited<ReturnType<typeof createDemoApp>>): Fetch {
  const fetchApp = appFetch(app);
  return async (url) => {
    const answer = await fetchApp({ method: 'GET', url: url.replace('http://localhost', '') });
    return { status: answer.status, link: answer.headers.link ?? null, body: answer.body };
  };
}

const BASE = 'http://localhost/v1/articles';

const cases: Array<{ name: string; open: () => Promise<DemoDatabaseHandle & { cleanup(): Promise<void> }> }> =
  [{ name: 'sqlite', open: () => openSqliteDemo('drizzle') }];
const pgUrl = process.env.PG_URL;
if (pgUrl) {
  cases.push({
    name: 'postgres',
    async open() {
      const url = await freshPostgres(pgUrl, '_drizzle');
      const handle = await openDatabase(url, '', { orm: 'drizzle' });
      await ensureSeeded(handle, TEST_ARTICLES);
      return {
        ...handle,
        cleanup: async () => {
          await handle.db.destroy();
          await dropPostgres(pgUrl, url);
        },
      };
    },
  });
}

for (const { name, open } of cases) {
  describe(`[${name}] the demo on ORM=drizzle`, () => {
    let database: DemoDatabaseHandle & { cleanup(): Promise<void> };
    let kysely: Fetch;
    let drizzle: Fetch;

    beforeAll(async () => {
      database = await open();
      expect(database.drizzle?.dialect).toBe(name);
      kysely = handler(await createDemoApp({ db: database.db }));
      drizzle = handler(await createDemoApp({ db: database.db, drizzle: database.drizzle }));
    }, 120_000);
    afterAll(async () => {
      await database?.cleanup();
    });

    it('page numbers, offsets and details: the same answers as on Kysely', async () => {
      for (const url of [
        `${BASE}/`,
        `${BASE}/?page=2&page_size=7`,
        `${BASE}/?page=last`,
        `${BASE}/?page=9999`,
        `${BASE}/offset/?offset=40`,
        `${BASE}/offset/?limit=5&offset=2995`,
        `${BASE}/17/`,
        `${BASE}/999999/`,
        `${BASE}/abc/`,
      ]) {
        expect(await drizzle(url), url).toEqual(await kysely(url));
      }
    });

    it('the feed, walked to its end under each ordering: the same pages and links', async () => {
      for (const ordering of ['', '&ordering=rating', '&ordering=-title', '&ordering=id']) {
        let url: string | null = `${BASE}/feed/?page_size=100${ordering}`;
        let pages = 0;
        const next = (body: string) => (JSON.parse(body) as { next: string | null }).next;
        while (url !== null && pages < 40) {
          const answer = await drizzle(url);
          expect(answer, url).toEqual(await kysely(url));
          url = next(answer.body);
          pages += 1;
        }
        expect(url).toBeNull();
        expect(pages).toBe(TEST_ARTICLES / 100);
      }
    });
  });
}
