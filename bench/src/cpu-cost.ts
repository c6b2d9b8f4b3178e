import { fromKysely } from '@pagewise/kysely-adapter';
import { fromArray } from '@pagewise/memory-adapter';
import {
  ApiRequest,
  CursorPagination,
  LimitOffsetPagination,
  type OrderedQuery,
  PageNumberPagination,
} from '@pagewise/rest';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresDialect,
  type PostgresDialectConfig,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type pg from 'pg';
import { Bench } from 'tinybench';
import type { BenchRow } from './bench-table.js';
import type { BenchDatabase } from './contenders.js';
import { cursorOrder, pagewiseCursorAfter, UNIQUE_KEY } from './orderings.js';

/** Per-page CPU time of one Pagewise code path, in microseconds. */
export interface CpuResult {
  readonly id: string;
  readonly label: string;
  readonly medianUs: number;
  readonly meanUs: number;
  readonly p99Us: number;
  readonly samples: number;
  /** Whether the 20 us target applies to it (the memory-adapter cursor page). */
  readonly target: boolean;
}

const URL_BASE = 'http://127.0.0.1/items';
const ORDERING = ['-created', '-id'];

/** Rows shaped like the benchmark table's, in memory. */
function memoryRows(count: number): BenchRow[] {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    created: new Date(Date.UTC(2024, 0, 1) + Math.floor(i / 8) * 1000),
    score: i % 5 === 0 ? null : (i * 48271) % 1000,
    title: `item ${i + 1}`,
  }));
}

/** Results of real queries by SQL text, recorded once and replayed without I/O. */
export type Tape = Map<string, QueryResult<unknown>>;

function tapeKey(query: CompiledQuery): string {
  return `${query.sql}\u0000${JSON.stringify(query.parameters, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v))}`;
}

/** Runs queries on Postgres and records each result on the tape. */
class RecordingDriver implements Driver {
  readonly #inner: Driver;
  readonly #tape: Tape;

  constructor(inner: Driver, tape: Tape) {
    this.#inner = inner;
    this.#tape = tape;
  }

  init(): Promise<void> {
    return this.#inner.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.#inner.acquireConnection();
    const tape = this.#tape;
    return {
      async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
        const result = await connection.executeQuery<R>(query);
        tape.set(tapeKey(query), result);
        return result;
      },
      streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
      // Kysely releases the wrapper; the inner driver needs its own connection back.
      [INNER]: connection,
    } as DatabaseConnection;
  }
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#inner.beginTransaction(unwrap(connection), settings);
  }
  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.commitTransaction(unwrap(connection));
  }
  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.rollbackTransaction(unwrap(connection));
  }
  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.#inner.releaseConnection(unwrap(connection));
  }
  destroy(): Promise<void> {
    return this.#inner.destroy();
  }
}

const INNER = Symbol('inner connection');

function unwrap(connection: DatabaseConnection): DatabaseConnection {
  return (connection as DatabaseConnection & { [INNER]?: DatabaseConnection })[INNER] ?? connection;
}

/**
 * Answers every query from the tape, without any I/O: timing a page through it measures what
 * the Kysely adapter and Pagewise cost on the CPU (building and compiling the query, decoding the
 * cursor, reading positions, building links). An unrecorded query fails loudly.
 */
class ReplayDriver implements Driver {
  readonly #connection: DatabaseConnection;

  constructor(tape: Tape) {
    this.#connection = {
      async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
        const result = tape.get(tapeKey(query));
        if (result === undefined) throw new Error(`CPU bench: no recorded result for ${query.sql}`);
        return { ...result, rows: [...result.rows] } as QueryResult<R>;
      },
      streamQuery: async function* () {},
    };
  }

  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.#connection;
  }
  async beginTransaction(): Promise<void> {}
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {}
}

/** A Postgres dialect whose queries run on `config`'s pool and land on `tape`. */
export class RecordingDialect extends PostgresDialect {
  readonly #tape: Tape;
  constructor(config: PostgresDialectConfig, tape: Tape) {
    super(config);
    this.#tape = tape;
  }
  override createDriver(): Driver {
    return new RecordingDriver(super.createDriver(), this.#tape);
  }
}

/** A Postgres dialect that answers every query from `tape`, without I/O. */
export class ReplayDialect extends PostgresDialect {
  readonly #tape: Tape;
  constructor(tape: Tape) {
    super({ pool: async () => Promise.reject(new Error('CPU bench: the replay dialect has no pool')) });
    this.#tape = tape;
  }
  override createDriver(): Driver {
    return new ReplayDriver(this.#tape);
  }
}

/** Where the Kysely rows of the CPU table record their page: the real table and a cursor into it. */
export interface RecordedPage {
  readonly pool: pg.Pool;
  readonly table: string;
  /** A Pagewise cursor (uniform ordering) of a page inside the table. */
  readonly cursor: string;
}

/**
 * Measures Pagewise's own CPU cost per 50-row page with tinybench: the memory adapter (the
 * target's subject: no database, no driver), plus the Kysely adapter replaying a page recorded
 * from Postgres (what the adapter adds to each database page), once with a fresh `fromKysely`
 * query per page as a handler builds it and once with one query object reused.
 */
export async function measureCpuCost(options: {
  readonly pageSize: number;
  readonly timeMs: number;
  readonly recorded: RecordedPage;
}): Promise<CpuResult[]> {
  const { pageSize } = options;
  const rows = memoryRows(10_000);
  const memory: OrderedQuery<BenchRow> = fromArray(rows, { ordering: ORDERING, uniqueKey: UNIQUE_KEY });
  const [middle] = await memory.fetch({ order: cursorOrder(ORDERING), after: null, offset: 4999, limit: 1 });
  const token = await pagewiseCursorAfter(fromArray([middle!.row], { uniqueKey: UNIQUE_KEY }), ORDERING);
  const cursorUrl = `${URL_BASE}?cursor=${token}`;
  const cursor = new CursorPagination({ pageSize, ordering: ORDERING });
  const pageNumber = new PageNumberPagination({ pageSize });
  const limitOffset = new LimitOffsetPagination({ defaultLimit: pageSize });

  // Record the page (and the adapter's one-time catalog lookup) on Postgres, then replay it.
  const tape: Tape = new Map();
  const { table } = options.recorded;
  const kyselyUrl = `${URL_BASE}?cursor=${options.recorded.cursor}`;
  const recorder = new Kysely<BenchDatabase>({
    dialect: new RecordingDialect({ pool: options.recorded.pool }, tape),
  });
  const recorded = fromKysely(recorder.selectFrom(table).select(['id', 'created', 'score', 'title']), {
    db: recorder,
    uniqueKey: UNIQUE_KEY,
  });
  await cursor.paginateQueryset(recorded, new ApiRequest({ url: kyselyUrl }));
  const db = new Kysely<BenchDatabase>({ dialect: new ReplayDialect(tape) });
  const kyselyQuery = () =>
    fromKysely(db.selectFrom(table).select(['id', 'created', 'score', 'title']), {
      db,
      uniqueKey: UNIQUE_KEY,
    });
  const reused = kyselyQuery();

  const tasks: Array<{ id: string; label: string; target: boolean; fn: () => Promise<void> }> = [
    {
      id: 'memory-cursor-deep',
      label: 'cursor page, memory adapter, cursor at row 5,000 of 10,000 (decode + fetch + links)',
      target: true,
      fn: async () => {
        const page = await cursor.paginateQueryset(memory, new ApiRequest({ url: cursorUrl }));
        cursor.getPaginatedResponse(page!);
      },
    },
    {
      id: 'memory-cursor-first',
      label: 'cursor page, memory adapter, first page (fetch + links)',
      target: true,
      fn: async () => {
        const page = await cursor.paginateQueryset(memory, new ApiRequest({ url: URL_BASE }));
        cursor.getPaginatedResponse(page!);
      },
    },
    {
      id: 'memory-page-number',
      label: 'page-number page 100, memory adapter (count + fetch + links)',
      target: false,
      fn: async () => {
        const page = await pageNumber.paginateQueryset(
          memory,
          new ApiRequest({ url: `${URL_BASE}?page=100` }),
        );
        pageNumber.getPaginatedResponse(page!);
      },
    },
    {
      id: 'memory-limit-offset',
      label: 'limit/offset page at offset 5,000, memory adapter (count + fetch + links)',
      target: false,
      fn: async () => {
        const url = `${URL_BASE}?limit=${pageSize}&offset=5000`;
        const page = await limitOffset.paginateQueryset(memory, new ApiRequest({ url }));
        limitOffset.getPaginatedResponse(page!);
      },
    },
    {
      id: 'kysely-cursor-fresh',
      label:
        'cursor page, Kysely adapter, fresh `fromKysely` query per page, recorded rows replayed (no I/O)',
      target: false,
      fn: async () => {
        const page = await cursor.paginateQueryset(kyselyQuery(), new ApiRequest({ url: kyselyUrl }));
        cursor.getPaginatedResponse(page!);
      },
    },
    {
      id: 'kysely-cursor-reused',
      label: 'cursor page, Kysely adapter, one query object reused, recorded rows replayed (no I/O)',
      target: false,
      fn: async () => {
        const page = await cursor.paginateQueryset(reused, new ApiRequest({ url: kyselyUrl }));
        cursor.getPaginatedResponse(page!);
      },
    },
  ];

  const bench = new Bench({ time: options.timeMs, warmupTime: Math.min(500, options.timeMs), throws: true });
  for (const task of tasks) bench.add(task.id, task.fn);
  await bench.run();
  return tasks.map((task) => {
    const result = bench.getTask(task.id)?.result;
    if (result === undefined || !('latency' in result)) {
      throw new Error(`tinybench did not complete "${task.id}"`);
    }
    return {
      id: task.id,
      label: task.label,
      target: task.target,
      medianUs: result.latency.p50 * 1000,
      meanUs: result.latency.mean * 1000,
      p99Us: result.latency.p99 * 1000,
      samples: result.latency.samplesCount,
    };
  });
}
