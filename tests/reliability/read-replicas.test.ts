import { fromKysely } from '@pagewise/kysely-adapter';
import {
  ApiRequest,
  type BasePagination,
  CursorPagination,
  LimitOffsetPagination,
  type OrderedQuery,
  PageNumberPagination,
} from '@pagewise/rest';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { describeWithPgInstances, type PgInstance, startReplicatedPair } from '../support/pg-instance.js';
import {
  firstOutOfOrder,
  missingStableRows,
  seedTimeline,
  startWriter,
  TIMELINE_BASE,
  type TimelineRow,
} from '../support/timeline.js';

/**
 * Read replicas: a real primary and its streaming hot standby (`pg_basebackup -R`), started by the
 * test. A cursor walk takes its pages from the primary and the standby in turn, as a client behind
 * a load balancer over replicas with different lag would, while a writer inserts and deletes on
 * the primary. Cursors carry values (the last row's `created, id`), not offsets, so every row that
 * existed for the whole walk comes back exactly once and in order; page-number counts are
 * per-server snapshots and differ by the lag.
 */

const TABLE = 'pw_replica_timeline';
const ROWS = 4000;
const PAGE = 37;

// biome-ignore lint/suspicious/noExplicitAny: the test table is created at run time.
type Db = Kysely<any>;

function open(instance: PgInstance): Db {
  const pool = new pg.Pool({ connectionString: instance.url(), max: 3, connectionTimeoutMillis: 10_000 });
  return new Kysely({ dialect: new PostgresDialect({ pool }) });
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const max = (values: readonly number[]) => values.reduce((a, b) => Math.max(a, b), 0);
const round = (value: number) => Math.round(value * 100) / 100;

describeWithPgInstances('read replicas: a primary and a streaming hot standby', () => {
  let pair: Awaited<ReturnType<typeof startReplicatedPair>>;
  let primary: Db;
  let standby: Db;

  beforeAll(async () => {
    const started = Date.now();
    pair = await startReplicatedPair();
    primary = open(pair.primary);
    standby = open(pair.standby);
    const { rows } = await sql<{ recovery: boolean }>`select pg_is_in_recovery() as recovery`.execute(
      standby,
    );
    expect(rows[0]!.recovery).toBe(true);
    console.log(
      `primary (port ${pair.primary.port}) and standby (port ${pair.standby.port}) up in ${Date.now() - started} ms`,
    );
  }, 90_000);

  afterAll(async () => {
    await primary?.destroy();
    await standby?.destroy();
    await pair?.stop();
  });

  /** Bytes of WAL the standby has not replayed yet (sampled on both servers at once). */
  async function lagBytes(): Promise<number> {
    const [written, replayed] = await Promise.all([
      sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(primary),
      sql<{ lsn: string | null }>`select pg_last_wal_replay_lsn()::text as lsn`.execute(standby),
    ]);
    const { rows } = await sql<{
      bytes: string;
    }>`select pg_wal_lsn_diff(${written.rows[0]!.lsn}::pg_lsn, ${replayed.rows[0]!.lsn}::pg_lsn) as bytes`.execute(
      primary,
    );
    return Math.max(0, Number(rows[0]!.bytes));
  }

  /** Waits until the standby has replayed everything the primary has written so far. */
  async function caughtUp(): Promise<number> {
    const started = performance.now();
    const { rows } = await sql<{ lsn: string }>`select pg_current_wal_insert_lsn()::text as lsn`.execute(
      primary,
    );
    const target = rows[0]!.lsn;
    for (;;) {
      const { rows: behind } = await sql<{
        behind: string;
      }>`select pg_wal_lsn_diff(${target}::pg_lsn, pg_last_wal_replay_lsn()) as behind`.execute(standby);
      if (Number(behind[0]!.behind) <= 0) return performance.now() - started;
      if (performance.now() - started > 20_000) throw new Error('the standby did not catch up in 20 s');
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  /** Milliseconds from a commit on the primary to the row being visible on the standby. */
  async function visibilityLag(): Promise<number> {
    const { rows } = await sql<{
      id: number;
    }>`insert into ${sql.table(TABLE)} (created) values (${new Date(TIMELINE_BASE - 1000)}) returning id`.execute(
      primary,
    );
    const committed = performance.now();
    const id = rows[0]!.id;
    for (;;) {
      const found = await standby.selectFrom(TABLE).select('id').where('id', '=', id).executeTakeFirst();
      if (found) break;
      if (performance.now() - committed > 20_000) throw new Error('the row never reached the standby');
    }
    const lag = performance.now() - committed;
    await primary.deleteFrom(TABLE).where('id', '=', id).execute();
    return lag;
  }

  const cursorQuery = (db: Db) =>
    fromKysely(db.selectFrom(TABLE).select(['id', 'created']), {
      db,
    }) as unknown as OrderedQuery<TimelineRow>;

  /** Newest first, for the offset-based styles. */
  const orderedQuery = (db: Db) =>
    fromKysely(
      db.selectFrom(TABLE).select(['id', 'created']).orderBy('created', 'desc').orderBy('id', 'desc'),
      {
        db,
      },
    ) as unknown as OrderedQuery<TimelineRow>;

  /** Counts as the page-number style reports them, on both servers at the same moment. */
  async function pageNumberCounts(): Promise<{ primary: number; standby: number; pagesDiffer: number }> {
    const request = new ApiRequest({ url: 'http://testserver/items/' });
    const page = (db: Db) => new PageNumberPagination({ pageSize: PAGE }).paginate(orderedQuery(db), request);
    const [onPrimary, onStandby] = await Promise.all([page(primary), page(standby)]);
    return {
      primary: onPrimary!.count!,
      standby: onStandby!.count!,
      pagesDiffer: onPrimary!.numPages! - onStandby!.numPages!,
    };
  }

  /**
   * A newest-first cursor walk whose pages alternate between the servers: each page's `next`
   * cursor, minted from one server's rows, is followed on the other.
   */
  async function alternatingWalk(
    onPage: () => Promise<void> = async () => {},
    style: () => BasePagination = () => new CursorPagination({ pageSize: PAGE, ordering: '-created' }),
    query: (db: Db) => OrderedQuery<TimelineRow> = cursorQuery,
  ) {
    const seen: TimelineRow[] = [];
    const servedBy = { primary: 0, standby: 0 };
    let url: string | null = 'http://testserver/items/';
    for (let page = 0; url !== null; page += 1) {
      const role = page % 2 === 0 ? 'primary' : 'standby';
      const pagination = style();
      const rows = await pagination.paginateQueryset(
        query(role === 'primary' ? primary : standby),
        new ApiRequest({ url }),
      );
      seen.push(...rows!);
      servedBy[role] += 1;
      url = pagination.getNextLink();
      await onPage();
    }
    return { seen, servedBy };
  }

  function expectExact(
    seen: readonly TimelineRow[],
    initial: readonly number[],
    deleted: ReadonlySet<number>,
  ) {
    const ids = seen.map((r) => r.id);
    expect(ids.length - new Set(ids).size, 'rows seen twice').toBe(0);
    expect(missingStableRows(initial, deleted, seen), 'stable rows never seen').toEqual([]);
    expect(firstOutOfOrder(seen), 'first pair out of order').toBeNull();
  }

  test('a walk alternating primary and standby pages under writes sees every stable row once, in order', async () => {
    const initial = await seedTimeline(primary, TABLE, ROWS);
    const seedReplayMs = await caughtUp();
    const writer = startWriter(primary, TABLE, initial);
    const lsnLag: number[] = [];
    const replayAge: number[] = [];
    const countDiffs: number[] = [];
    const pageDiffs: number[] = [];
    const { seen, servedBy } = await alternatingWalk(async () => {
      lsnLag.push(await lagBytes());
      const { rows } = await sql<{
        ms: number;
      }>`select extract(epoch from clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000 as ms`.execute(
        standby,
      );
      replayAge.push(Number(rows[0]!.ms));
      const counts = await pageNumberCounts();
      countDiffs.push(counts.primary - counts.standby);
      pageDiffs.push(counts.pagesDiffer);
    });
    const operations = await writer.stop();
    const visibility: number[] = [];
    for (let i = 0; i < 20; i += 1) visibility.push(await visibilityLag());

    expectExact(seen, initial, writer.deleted);
    expect(servedBy.primary).toBeGreaterThan(40);
    expect(servedBy.standby).toBeGreaterThan(40);
    expect(operations).toBeGreaterThan(20);

    const absCounts = countDiffs.map(Math.abs);
    console.log(
      [
        `read replicas: ${seen.length} rows over ${servedBy.primary} primary + ${servedBy.standby} standby pages, ` +
          `${initial.length - writer.deleted.size} stable rows each seen once and in order, ` +
          `${operations} concurrent writes (${writer.deleted.size} deletes)`,
        `  standby lag per page: WAL behind median ${median(lsnLag)} B, max ${max(lsnLag)} B; ` +
          `age of the last replayed commit median ${round(median(replayAge))} ms, max ${round(max(replayAge))} ms`,
        `  commit-to-visible on the standby (20 probes): median ${round(median(visibility))} ms, max ${round(max(visibility))} ms; ` +
          `seed of ${ROWS} rows replayed in ${round(seedReplayMs)} ms`,
        `  page-number count primary - standby, sampled at once per page: differs on ${absCounts.filter((d) => d > 0).length} of ` +
          `${countDiffs.length} samples, by up to ${max(absCounts)} rows (${max(pageDiffs.map(Math.abs))} page(s))`,
      ].join('\n'),
    );
  }, 60_000);

  test('a standby paused 50 rows behind: counts differ by exactly that, the alternating walk stays exact', async () => {
    const initial = await seedTimeline(primary, TABLE, ROWS);
    await caughtUp();
    await sql`select pg_wal_replay_pause()`.execute(standby);
    try {
      for (;;) {
        const { rows } = await sql<{
          state: string;
        }>`select pg_get_wal_replay_pause_state() as state`.execute(standby);
        if (rows[0]!.state === 'paused') break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      // 70 new rows at the head of the newest-first order, 20 deletes of stable rows spread over it.
      const inserted = Array.from({ length: 70 }, (_, i) => ({
        created: new Date(TIMELINE_BASE + 10_000_000 + i),
      }));
      await primary.insertInto(TABLE).values(inserted).execute();
      const deleted = new Set(initial.filter((_, i) => i % 200 === 100));
      await primary
        .deleteFrom(TABLE)
        .where('id', 'in', [...deleted])
        .execute();
      expect(deleted.size).toBe(20);

      const counts = await pageNumberCounts();
      expect(counts).toEqual({
        primary: ROWS + 50,
        standby: ROWS,
        pagesDiffer: Math.ceil((ROWS + 50) / PAGE) - Math.ceil(ROWS / PAGE),
      });
      expect(counts.pagesDiffer).toBe(1);
      const behind = await lagBytes();
      expect(behind).toBeGreaterThan(0);

      const { seen } = await alternatingWalk();
      expectExact(seen, initial, deleted);
      // Rows deleted on the primary still show on standby pages, new rows only on the primary's
      // first page: neither is a stable row, and none repeats.
      const seenIds = new Set(seen.map((r) => r.id));
      const staleSeen = [...deleted].filter((id) => seenIds.has(id)).length;

      // The same alternation with offsets: the 50-row difference shifts every page between servers.
      const offsets = await alternatingWalk(
        undefined,
        () => new LimitOffsetPagination({ defaultLimit: PAGE }),
        orderedQuery,
      );
      const offsetIds = offsets.seen.map((r) => r.id);
      const repeated = offsetIds.length - new Set(offsetIds).size;
      const skipped = missingStableRows(initial, deleted, offsets.seen).length;
      expect(repeated + skipped).toBeGreaterThan(0);
      console.log(
        `paused standby: ${behind} B of WAL behind; page-number count ${counts.primary} on the primary vs ` +
          `${counts.standby} on the standby (${counts.primary - counts.standby} rows, ${counts.pagesDiffer} page); ` +
          `alternating walk exact: ${seen.length} rows, ${staleSeen} of the 20 deleted rows still served by standby pages; ` +
          `an offset walk alternating the same way repeated ${repeated} rows and skipped ${skipped} stable rows`,
      );
    } finally {
      await sql`select pg_wal_replay_resume()`.execute(standby);
    }
    await caughtUp();
    const after = await pageNumberCounts();
    expect(after.primary).toBe(after.standby);
  }, 60_000);
});
