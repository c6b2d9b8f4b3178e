import { createKyselyPaginateBench, type KyselyPaginateBench } from '@pagewise/bench-kysely-paginate-024';
import { fromKysely, nameStatements } from '@pagewise/kysely-adapter';
import {
  ApiRequest,
  type CountMode,
  CursorPagination,
  LimitOffsetPagination,
  PageNumberPagination,
} from '@pagewise/rest';
import { type CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { type BenchRow, COLUMNS } from './bench-table.js';
import { smallPool } from './database.js';
import { kyselyKeysetPage } from './kysely-keyset.js';
import type { PageFetch } from './measure.js';
import {
  type BenchOrdering,
  ORDERINGS,
  type OrderingName,
  pagewiseCursorAfter,
  UNIQUE_KEY,
} from './orderings.js';

/** Which comparison a contender belongs to. */
export type ContenderFamily = 'cursor' | 'offset';

/** Who serves the page. */
export type ContenderKind =
  | 'raw'
  | 'raw-unnamed'
  | 'kysely-hand'
  | 'pagewise-sql'
  | 'pagewise-sql-kysely'
  | 'pagewise-cursor'
  | 'kysely-paginate'
  | 'raw-offset'
  | 'pagewise-limit-offset'
  | 'pagewise-page-exact'
  | 'pagewise-page-estimated'
  | 'pagewise-page-estimated-cached'
  | 'pagewise-page-none';

/** One page being fetched at one depth. */
export interface DepthPoint {
  /** Rows before the page. */
  readonly depth: number;
  /** The row right before the page in each ordering; `null` at depth 0. */
  readonly before: Readonly<Record<OrderingName, BenchRow | null>>;
  /** The Pagewise cursor of the page in each ordering; `null` at depth 0. */
  readonly cursors: Readonly<Record<OrderingName, string | null>>;
}

/** A way of serving a 50-row page that the benchmark times. */
export interface Contender {
  /** Unique, e.g. `pagewise-cursor:uniform`. */
  readonly id: string;
  readonly kind: ContenderKind;
  readonly family: ContenderFamily;
  readonly ordering: OrderingName;
  readonly label: string;
  /** Untimed set-up for one depth (cursor tokens, URLs); the result fetches the page. */
  prepare(point: DepthPoint): PageFetch;
}

/** Kysely's view of the benchmark table (its name is chosen at run time). */
export interface BenchTable {
  id: number;
  created: Date;
  score: number | null;
  title: string;
}

/** The database type the Pagewise contenders query through. */
export type BenchDatabase = Record<string, BenchTable>;

/** Everything the contenders share; `close` ends every pool. */
export interface ContenderSet {
  readonly contenders: readonly Contender[];
  readonly kyselyPaginateVersions: { readonly kysely: string; readonly kyselyPaginate: string };
  /** What the last `capture` of `contender` saw Pagewise send. */
  sentSql(contender: string): readonly CompiledQuery[];
  /**
   * One untimed page per ordering on both Kysely instances, so one-time work (the adapter's
   * catalog lookup) is neither timed nor captured as per-page SQL.
   */
  warm(): Promise<void>;
  /** The Pagewise cursor of the page right after `row` in `ordering` (untimed set-up). */
  cursorAfter(ordering: BenchOrdering, row: BenchRow): Promise<string>;
  /**
   * Runs `fn` on a logging Kysely instance and returns the SQL Pagewise sent meanwhile; the
   * `pagewise-sql` contenders replay what was captured for `contender`.
   */
  capture<T>(contender: string, fn: () => Promise<T>): Promise<{ result: T; queries: CompiledQuery[] }>;
  close(): Promise<void>;
}

const BASE_URL = 'http://127.0.0.1/items';

function ids(rows: ReadonlyArray<{ id: number }>): number[] {
  return rows.map((row) => row.id);
}

/** Contenders that read the rows before the page: OFFSET, counts and kysely-paginate's OR-chain. */
export function isScanning(contender: Contender): boolean {
  return contender.family !== 'cursor' || contender.kind === 'kysely-paginate';
}

/** The human name of a kind, for tables and the chart legend. */
export const KIND_LABELS: Readonly<Record<ContenderKind, string>> = {
  raw: 'raw SQL (pg, prepared)',
  'raw-unnamed': 'raw SQL (pg, unnamed)',
  'kysely-hand': 'keyset query hand-written in Kysely (stock dialect)',
  'pagewise-sql': "Pagewise's SQL replayed (pg, unnamed)",
  'pagewise-sql-kysely': "Pagewise's SQL through Kysely's executor (Pagewise's own instance and pool)",
  'pagewise-cursor': 'Pagewise cursor',
  'kysely-paginate': 'kysely-paginate 0.2.0',
  'raw-offset': 'raw OFFSET (pg, prepared)',
  'pagewise-limit-offset': 'Pagewise limit/offset',
  'pagewise-page-exact': 'Pagewise page-number, count exact',
  'pagewise-page-estimated': 'Pagewise page-number, count estimated',
  'pagewise-page-estimated-cached': 'Pagewise page-number, count estimated, cached (countCacheTtl)',
  'pagewise-page-none': 'Pagewise page-number, count none',
};

/**
 * Builds every contender over `table`. Each library gets its own small pool so that one cannot
 * warm the other's connections or prepared statements.
 */
export function createContenders(options: {
  readonly databaseUrl: string;
  readonly table: string;
  readonly pageSize: number;
  readonly poolSize: number;
}): ContenderSet {
  const { table, pageSize } = options;
  const rawPool = smallPool(options.databaseUrl, options.poolSize);
  const kyselyPool = smallPool(options.databaseUrl, options.poolSize);
  const kpPool = smallPool(options.databaseUrl, options.poolSize);
  // What a Kysely user without Pagewise has: the stock dialect over a plain pg pool.
  const handDb = new Kysely<BenchDatabase>({
    dialect: new PostgresDialect({ pool: smallPool(options.databaseUrl, options.poolSize) }),
  });
  let capturing: CompiledQuery[] | null = null;
  const captured = new Map<string, readonly CompiledQuery[]>();
  // Pagewise as its docs recommend over `pg`: the pool wrapped by `nameStatements` (named
  // statements, exact timestamp text from pg's type parsers); the user's code is otherwise the same.
  const db = new Kysely<BenchDatabase>({
    dialect: new PostgresDialect({ pool: nameStatements(kyselyPool) }),
  });
  // A second instance with a logger sees the SQL Pagewise sends; the timed one carries no logger.
  const probe = new Kysely<BenchDatabase>({
    dialect: new PostgresDialect({ pool: nameStatements(smallPool(options.databaseUrl, 1)) }),
    log: (event) => {
      if (event.level === 'query') capturing?.push(event.query);
    },
  });
  let active = db;
  const kp: KyselyPaginateBench = createKyselyPaginateBench({ pool: kpPool, table });

  /** A fresh query per page, as a request handler builds it. */
  const pagewiseQuery = () =>
    fromKysely(active.selectFrom(table).select([...COLUMNS]), { db: active, uniqueKey: UNIQUE_KEY });
  const offsetQuery = () =>
    fromKysely(
      active
        .selectFrom(table)
        .select([...COLUMNS])
        .orderBy('created', 'desc')
        .orderBy('id', 'desc'),
      {
        db: active,
        uniqueKey: UNIQUE_KEY,
      },
    );

  const contenders: Contender[] = [];
  for (const ordering of ORDERINGS) {
    contenders.push(rawCursor(rawPool, table, ordering, pageSize, true));
    contenders.push(rawCursor(rawPool, table, ordering, pageSize, false));
    contenders.push({
      id: `kysely-hand:${ordering.name}`,
      kind: 'kysely-hand',
      family: 'cursor',
      ordering: ordering.name,
      label: `${KIND_LABELS['kysely-hand']}, ${ordering.title}`,
      prepare(point) {
        const before = point.before[ordering.name];
        return async () => {
          const rows = (await kyselyKeysetPage(handDb, table, ordering.name, before, pageSize + 1, {
            rowValues: true,
            nullsLast: true,
          }).execute()) as BenchRow[];
          return ids(rows.slice(0, pageSize));
        };
      },
    });
    const pagination = new CursorPagination({ pageSize, ordering: ordering.pagewise });
    contenders.push({
      id: `pagewise-cursor:${ordering.name}`,
      kind: 'pagewise-cursor',
      family: 'cursor',
      ordering: ordering.name,
      label: `${KIND_LABELS['pagewise-cursor']}, ${ordering.title}`,
      prepare(point) {
        const cursor = point.cursors[ordering.name];
        const url = cursor === null ? BASE_URL : `${BASE_URL}?cursor=${cursor}`;
        return async () => {
          const rows = (await pagination.paginateQueryset(pagewiseQuery(), new ApiRequest({ url })))!;
          // Links are part of the page: the response builds `next` and `previous`.
          pagination.getPaginatedResponse(rows);
          return ids(rows);
        };
      },
    });
    /**
     * The statements the Pagewise contender's check run captured at this depth (read at call time),
     * replayed by `execute`; a page that crosses into a NULL block sends one statement per block.
     */
    const replayed = (
      kind: 'pagewise-sql' | 'pagewise-sql-kysely',
      execute: (q: CompiledQuery) => Promise<BenchRow[]>,
    ): Contender => ({
      id: `${kind}:${ordering.name}`,
      kind,
      family: 'cursor',
      ordering: ordering.name,
      label: `${KIND_LABELS[kind]}, ${ordering.title}`,
      prepare: () => async () => {
        const rows: BenchRow[] = [];
        for (const q of captured.get(`pagewise-cursor:${ordering.name}`) ?? [])
          rows.push(...(await execute(q)));
        return ids(rows.slice(0, pageSize));
      },
    });
    // Through `pg`, unnamed: Pagewise minus it is the JavaScript side (Pagewise, Kysely, the driver).
    contenders.push(
      replayed('pagewise-sql', async (q) => (await rawPool.query<BenchRow>(q.sql, [...q.parameters])).rows),
    );
    // As compiled, by `executeQuery` on the instance Pagewise pages with (`nameStatements` pool):
    // Pagewise minus it is Pagewise's own JavaScript.
    contenders.push(
      replayed('pagewise-sql-kysely', async (q) => (await db.executeQuery<BenchRow>(q)).rows as BenchRow[]),
    );
    const fields = ordering.kyselyPaginate;
    if (fields !== null) {
      contenders.push({
        id: `kysely-paginate:${ordering.name}`,
        kind: 'kysely-paginate',
        family: 'cursor',
        ordering: ordering.name,
        label: `${KIND_LABELS['kysely-paginate']}, ${ordering.title}`,
        prepare(point) {
          const before = point.before[ordering.name];
          const after =
            before === null ? undefined : kp.cursorFor(fields, before as unknown as Record<string, unknown>);
          return async () => ids(await kp.page(fields, after, pageSize));
        },
      });
    }
  }

  const uniform = ORDERINGS[0]!;
  contenders.push({
    id: 'raw-offset:uniform',
    kind: 'raw-offset',
    family: 'offset',
    ordering: 'uniform',
    label: KIND_LABELS['raw-offset'],
    prepare(point) {
      const statement = {
        name: `${table}_offset`,
        text: `SELECT ${COLUMNS.join(', ')} FROM ${table} ORDER BY ${uniform.orderBy} LIMIT $1 OFFSET $2`,
        values: [pageSize, point.depth],
      };
      return async () => ids((await rawPool.query<BenchRow>(statement)).rows);
    },
  });
  const limitOffset = new LimitOffsetPagination({ defaultLimit: pageSize });
  contenders.push({
    id: 'pagewise-limit-offset:uniform',
    kind: 'pagewise-limit-offset',
    family: 'offset',
    ordering: 'uniform',
    label: KIND_LABELS['pagewise-limit-offset'],
    prepare(point) {
      const url = `${BASE_URL}?limit=${pageSize}&offset=${point.depth}`;
      return async () => {
        const rows = (await limitOffset.paginateQueryset(offsetQuery(), new ApiRequest({ url })))!;
        limitOffset.getPaginatedResponse(rows);
        return ids(rows);
      };
    },
  });
  const pageCounts = [
    ['exact', 'pagewise-page-exact', null],
    ['estimated', 'pagewise-page-estimated', null],
    // The estimate reused for a minute: after the first page, no count query at all.
    ['estimated', 'pagewise-page-estimated-cached', 60_000],
    ['none', 'pagewise-page-none', null],
  ] as const satisfies ReadonlyArray<readonly [CountMode, ContenderKind, number | null]>;
  for (const [count, kind, countCacheTtl] of pageCounts) {
    const pagination = new PageNumberPagination({ pageSize, count, countCacheTtl });
    contenders.push({
      id: `${kind}:uniform`,
      kind,
      family: 'offset',
      ordering: 'uniform',
      label: KIND_LABELS[kind],
      prepare(point) {
        const url = `${BASE_URL}?page=${Math.floor(point.depth / pageSize) + 1}`;
        return async () => {
          const rows = (await pagination.paginateQueryset(offsetQuery(), new ApiRequest({ url })))!;
          pagination.getPaginatedResponse(rows);
          return ids(rows);
        };
      },
    });
  }

  return {
    contenders,
    kyselyPaginateVersions: kp.versions,
    sentSql: (contender) => captured.get(contender) ?? [],
    async warm() {
      for (const instance of [db, probe]) {
        active = instance;
        for (const ordering of ORDERINGS) await pagewiseCursorAfter(pagewiseQuery(), ordering.pagewise);
        await offsetQuery().count();
      }
      active = db;
    },
    // A query holding only that row: the adapter reads its position, whatever the depth.
    cursorAfter: (ordering, row) =>
      pagewiseCursorAfter(
        fromKysely(
          db
            .selectFrom(table)
            .select([...COLUMNS])
            .where('id', '=', row.id),
          { db, uniqueKey: UNIQUE_KEY },
        ),
        ordering.pagewise,
      ),
    async capture(contender, fn) {
      const queries: CompiledQuery[] = [];
      capturing = queries;
      active = probe;
      try {
        const result = await fn();
        captured.set(contender, queries);
        return { result, queries };
      } finally {
        capturing = null;
        active = db;
      }
    },
    async close() {
      await Promise.all([rawPool.end(), db.destroy(), probe.destroy(), kp.destroy(), handDb.destroy()]);
    },
  };
}

/**
 * The limit: the hand-written keyset query through `pg`, as a named (prepared) statement or as
 * an unnamed one (parsed and planned on every call, which is what query builders send).
 */
function rawCursor(
  pool: pg.Pool,
  table: string,
  ordering: BenchOrdering,
  pageSize: number,
  named: boolean,
): Contender {
  const kind: ContenderKind = named ? 'raw' : 'raw-unnamed';
  return {
    id: `${kind}:${ordering.name}`,
    kind,
    family: 'cursor',
    ordering: ordering.name,
    label: `${KIND_LABELS[kind]}, ${ordering.title}`,
    prepare(point) {
      const statement = ordering.statement(table, point.before[ordering.name], pageSize + 1);
      const query = named ? statement : { text: statement.text, values: statement.values };
      return async () => {
        const { rows } = await pool.query<BenchRow>(query);
        // The look-ahead row tells whether there is a next page; the page itself is pageSize rows.
        return ids(rows.slice(0, pageSize));
      };
    },
  };
}
