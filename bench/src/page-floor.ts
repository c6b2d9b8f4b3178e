/**
 * What a page costs in JavaScript alone, warm, with no I/O: the same 51 rows from an in-memory
 * SQLite database (better-sqlite3), paged by a Kysely page written by hand and by Pagewise over
 * Kysely (`CursorPagination.paginateQueryset` and `getPaginatedResponse`, a fresh `fromKysely` per
 * request, as the orm bench runs them), each contender profiled alone (V8's sampling profiler):
 * self time per page by area. Beside them, Kysely's build and compile of the hand-written page
 * timed without running it, and Pagewise's engine and web layer over an array (`fromArray`), where
 * no SQL is planned at all.
 *
 * Where the hand-written page and Pagewise do the same database and driver work, the hand-written
 * page's only cost above it is Kysely's (building and compiling the statement); Pagewise compiles
 * once, but decodes a cursor, encodes two, builds the links and the page value. This prints both,
 * and the hand-written page again with the least a hand-written API page adds to its query: its
 * cursor read from the URL and the next page's link minted (`handCursorPage`).
 *
 * Run: pnpm --filter @pagewise/bench run floor [-- --pages 20000] [--top 40]
 */
import { fromKysely } from '@pagewise/kysely-adapter';
import { fromArray } from '@pagewise/memory-adapter';
import { ApiRequest, CursorPagination } from '@pagewise/rest';
import { Kysely, SqliteDialect } from 'kysely';
import { COLUMNS } from './bench-table.js';
import { handCursor, handCursorPage, type KeysetRow, kyselyKeysetPage } from './kysely-keyset.js';
import { measureRoundRobin, type PageFetch } from './measure.js';
import { flagValue } from './options.js';
import { PAGEWISE_AREAS, type ProfileSummary, profilePages } from './profile.js';
import { memoryItems } from './sqlite-items.js';

const args = process.argv.slice(2);
const pages = Number(flagValue(args, 'pages') ?? 20_000);
/**
 * With `--top N`, each of Pagewise's contenders lists its N heaviest functions by self time, and
 * Pagewise's N heaviest by synchronous inclusive time (where a page's phases go).
 */
const top = Number(flagValue(args, 'top') ?? 0);
const ROWS = 20_000;
const PAGE_SIZE = 50;
const STYLE = { rowValues: true, nullsLast: false } as const;

const memory = memoryItems(ROWS);
// biome-ignore lint/suspicious/noExplicitAny: one table, chosen here.
const db = new Kysely<any>({ dialect: new SqliteDialect({ database: memory }) });
const pagination = new CursorPagination({ pageSize: PAGE_SIZE, ordering: ['-created', '-id'] });
const query = () => fromKysely(db.selectFrom('items').select([...COLUMNS]), { db, uniqueKey: 'id' });
const array = Array.from({ length: 120 }, (_, i) => ({
  id: i + 1,
  created: new Date(1704067200000 + Math.floor(i / 3) * 1000),
  score: i % 7,
  title: `item ${i}`,
}));

const ids = (rows: ReadonlyArray<{ id: unknown }>) => rows.slice(0, PAGE_SIZE).map((r) => Number(r.id));

/** The page `url` asks for, as the orm bench's Pagewise contenders make it. */
function pagewisePage(url: string, over: () => ReturnType<typeof query> | ReturnType<typeof fromArray>) {
  return async () => {
    const page = (await pagination.paginateQueryset(over(), new ApiRequest({ url })))!;
    pagination.getPaginatedResponse(page);
    return ids(page as Array<{ id: number }>);
  };
}

const firstUrl = 'http://127.0.0.1/items';
const first = await pagination.paginate(query(), new ApiRequest({ url: firstUrl }));
const deepUrl = first!.next!;
const after = memory
  .prepare(
    `SELECT ${COLUMNS.join(', ')} FROM items ORDER BY created DESC, id DESC LIMIT 1 OFFSET ${PAGE_SIZE - 1}`,
  )
  .get() as KeysetRow;
const arrayFirst = await pagination.paginate(
  fromArray(array, { uniqueKey: 'id' }),
  new ApiRequest({ url: firstUrl }),
);

const handSecondUrl = `${firstUrl}?cursor=${handCursor(after)}`;

/** The hand-written page with its cursor work (`handCursorPage`); every page here has a next one. */
function handWithCursor(url: string): PageFetch {
  return async () => {
    const { rows, next } = await handCursorPage(db, 'items', 'uniform', url, PAGE_SIZE, STYLE, false);
    if (next === null) throw new Error('the floor pages all have a next page');
    return ids(rows);
  };
}

const contenders: Array<[string, PageFetch]> = [
  [
    'Kysely hand, first page',
    async () =>
      ids(
        (await kyselyKeysetPage(db, 'items', 'uniform', null, 51, STYLE).execute()) as Array<{ id: number }>,
      ),
  ],
  [
    'Kysely hand, second page',
    async () =>
      ids(
        (await kyselyKeysetPage(db, 'items', 'uniform', after, 51, STYLE).execute()) as Array<{ id: number }>,
      ),
  ],
  ['Kysely hand with its cursor, first page', handWithCursor(firstUrl)],
  ['Kysely hand with its cursor, second page', handWithCursor(handSecondUrl)],
  ['Pagewise over Kysely, first page', pagewisePage(firstUrl, query)],
  ['Pagewise over Kysely, second page', pagewisePage(deepUrl, query)],
  ['Pagewise over an array, first page', pagewisePage(firstUrl, () => fromArray(array, { uniqueKey: 'id' }))],
  [
    'Pagewise over an array, second page',
    pagewisePage(arrayFirst!.next!, () => fromArray(array, { uniqueKey: 'id' })),
  ],
];

const byName = new Map(contenders);
const seconds = await Promise.all(
  [
    'Kysely hand, second page',
    'Kysely hand with its cursor, second page',
    'Pagewise over Kysely, second page',
  ].map((name) => byName.get(name)!()),
);
if (new Set(seconds.map((page) => page.join())).size !== 1)
  throw new Error('the hand-written and Pagewise pages differ');

/** Kysely's build and compile of the hand-written page, per page, in microseconds (no execution). */
function compileUs(row: KeysetRow | null): number {
  const run = (n: number) => {
    for (let i = 0; i < n; i += 1) kyselyKeysetPage(db, 'items', 'uniform', row, 51, STYLE).compile();
  };
  run(5000);
  const start = performance.now();
  run(pages);
  return ((performance.now() - start) * 1000) / pages;
}

const area = (summary: ProfileSummary, name: string) =>
  summary.areas.find((a) => a.area === name)?.usPerPage ?? 0;
const own = (summary: ProfileSummary) =>
  summary.areas.filter((a) => PAGEWISE_AREAS.includes(a.area)).reduce((sum, a) => sum + a.usPerPage, 0);
const us = (n: number) => n.toFixed(1);

const lines = [
  `Generated by \`pnpm --filter @pagewise/bench run floor\` on ${new Date().toISOString()}, ${pages} pages per contender, ${ROWS} rows in an in-memory SQLite database, 50-row pages (+1 look-ahead); self time per page (V8 sampling profiler, each contender alone and warm).`,
  '',
  '| contender | CPU per page | Kysely | Pagewise own (core, sql, rest, adapter) | driver | other |',
  '| --- | --- | --- | --- | --- | --- |',
];
const tops: string[] = [];
for (const [name, fetch] of contenders) {
  const summary = await profilePages(name, fetch, pages);
  if (top > 0 && name.startsWith('Pagewise'))
    tops.push(
      '',
      `${name}, heaviest functions (self us per page):`,
      ...summary.top.slice(0, top).map((e) => `- ${us(e.usPerPage)} ${e.area}: ${e.fn}`),
      '',
      `${name}, Pagewise's heaviest phases (us per page in each function and what it calls before it returns or awaits):`,
      ...summary.inclusive.slice(0, top).map((e) => `- ${us(e.usPerPage)} ${e.area}: ${e.fn}`),
    );
  const kysely = area(summary, 'kysely');
  const pagewise = own(summary);
  const driver = area(summary, 'driver');
  const parts = PAGEWISE_AREAS.map((a) => `${a.replace('pagewise ', '')} ${us(area(summary, a))}`).join(', ');
  lines.push(
    `| ${name} | ${us(summary.cpuUsPerPage)} | ${us(kysely)} | ${us(pagewise)} (${parts}) | ${us(driver)} | ${us(summary.cpuUsPerPage - kysely - pagewise - driver)} |`,
  );
}
lines.push(
  '',
  `Kysely's build and compile of the hand-written page alone, timed: first page ${us(compileUs(null))} us, second page ${us(compileUs(after))} us.`,
);
// The Kysely contenders timed without the profiler, round robin (each page between the others'):
// medians, and Pagewise's over the hand-written page's with and without its cursor work.
const timed = await measureRoundRobin(new Map(contenders.filter(([name]) => !name.includes('array'))), {
  warmupRounds: 500,
  maxSamples: 4000,
  minSamples: 4000,
  budgetMs: 60_000,
});
const median = (name: string) => timed.get(name)!.medianMs * 1000;
lines.push(
  '',
  'Timed round robin without the profiler (median us per page; Pagewise over the hand-written page, and over it with its cursor):',
  '',
  '| page | Kysely hand | Kysely hand with its cursor | Pagewise over Kysely | **PW / hand** | **PW / hand with its cursor** |',
  '| --- | --- | --- | --- | --- | --- |',
  ...(['first', 'second'] as const).map((which) => {
    const [hand, cursor, pw] = [
      `Kysely hand, ${which} page`,
      `Kysely hand with its cursor, ${which} page`,
      `Pagewise over Kysely, ${which} page`,
    ].map(median) as [number, number, number];
    return `| ${which} | ${us(hand)} | ${us(cursor)} | ${us(pw)} | **${(pw / hand).toFixed(2)}x** | **${(pw / cursor).toFixed(2)}x** |`;
  }),
);
process.stdout.write(`${[...lines, ...tops].join('\n')}\n`);
await db.destroy();
