import {
  ApiRequest,
  CursorPagination,
  LimitOffsetPagination,
  type OrderedQuery,
  PageNumberPagination,
} from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import { fromArray } from '@pagewise/memory-adapter';
import {
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';
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

/**
 * A Kysely driver that answers every query with the same rows without any I/O, so that timing a
 * page through it measures what the Kysely adapter and Pagewise cost on the CPU: building and
 * compiling the query, decoding the cursor, reading positions, building links.
 */
class CannedDriver implements Driver {
  readonly #connection: DatabaseConnection;

  constructor(rows: readonly object[]) {
    const result: QueryResult<object> = { rows: [...rows] };
    this.#connection = {
      executeQuery: async <R>() => result as QueryResult<R>,
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

function cannedDialect(rows: readonly object[]): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new CannedDriver(rows),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}

/**
 * Measures Pagewise's own CPU cost per 50-row page with tinybench: the memory adapter (the
 * target's subject: no database, no driver), plus the Kysely adapter over a driver that answers
 * instantly (what the adapter adds to each database page).
 */
export async function measureCpuCost(options: { pageSize: number; timeMs: number }): Promise<CpuResult[]> {
  const { pageSize } = options;
  const rows = memoryRows(10_000);
  const memory: OrderedQuery<BenchRow> = fromArray(rows, { ordering: ORDERING, uniqueKey: UNIQUE_KEY });
  const [middle] = await memory.fetch({ order: cursorOrder(ORDERING), after: null, offset: 4999, limit: 1 });
  const token = await pagewiseCursorAfter(fromArray([middle!.row], { uniqueKey: UNIQUE_KEY }), ORDERING);
  const cursorUrl = `${URL_BASE}?cursor=${token}`;
  const cursor = new CursorPagination({ pageSize, ordering: ORDERING });
  const pageNumber = new PageNumberPagination({ pageSize });
  const limitOffset = new LimitOffsetPagination({ defaultLimit: pageSize });

  const canned = rows.slice(0, pageSize + 1);
  const db = new Kysely<BenchDatabase>({ dialect: cannedDialect(canned) });
  // Column kinds given up front: the canned driver cannot answer a catalog lookup.
  const columns = { id: 'number', created: 'date', score: { kind: 'number', nullable: true } } as const;
  const kyselyQuery = () =>
    fromKysely(db.selectFrom('items').select(['id', 'created', 'score', 'title']), {
      db,
      uniqueKey: UNIQUE_KEY,
      columns,
    });

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
      id: 'kysely-cursor-no-io',
      label: 'cursor page, Kysely adapter over a driver that answers instantly (build + compile + links)',
      target: false,
      fn: async () => {
        const page = await cursor.paginateQueryset(kyselyQuery(), new ApiRequest({ url: cursorUrl }));
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
