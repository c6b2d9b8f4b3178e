import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import { defaultEncodeCursor, executeWithCursorPagination } from 'kysely-paginate';
import type pg from 'pg';

/** The row shape of the benchmark table, as kysely 0.24 sees it. */
interface ItemTable {
  id: number;
  created: Date;
  score: number | null;
  title: string;
}

type Database = Record<string, ItemTable>;

/** One sort field of kysely-paginate: a column of the benchmark table and its direction. */
export interface KyselyPaginateField {
  readonly field: 'id' | 'created' | 'score';
  readonly direction: 'asc' | 'desc';
}

/** What the benchmark needs from kysely-paginate 0.2.0. */
export interface KyselyPaginateBench {
  /** The versions actually loaded, for the results file. */
  readonly versions: { readonly kysely: string; readonly kyselyPaginate: string };
  /** kysely-paginate's own cursor token for a position (its `defaultEncodeCursor`). */
  cursorFor(fields: readonly KyselyPaginateField[], row: Readonly<Record<string, unknown>>): string;
  /**
   * One page as kysely-paginate serves it: decode `after`, run the query, make the start and end
   * cursors. Resolves to the page's rows.
   */
  page(
    fields: readonly KyselyPaginateField[],
    after: string | undefined,
    perPage: number,
  ): Promise<ReadonlyArray<{ id: number }>>;
  /** Destroys the Kysely instance, which ends `pool`. */
  destroy(): Promise<void>;
}

/** The version of the package `name` as this package resolves it (its own copy, not the workspace's). */
export function resolvedVersion(name: string): string {
  let dir = dirname(createRequire(import.meta.url).resolve(name));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === name) return manifest.version ?? 'unknown';
    } catch {
      // No manifest at this level: keep walking up.
    }
    const parent = dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}

function parseValue(field: string, text: string): Date | number {
  return field === 'created' ? new Date(text) : Number(text);
}

/**
 * kysely-paginate 0.2.0 over `table`, on its own kysely 0.24.2 (the version it was built for;
 * the workspace's kysely 0.28 changed the expression builder it calls).
 *
 * @example
 * const kp = createKyselyPaginateBench({ pool, table: 'items' });
 * const rows = await kp.page([{ field: 'created', direction: 'desc' }, { field: 'id', direction: 'desc' }], undefined, 50);
 */
export function createKyselyPaginateBench(options: {
  readonly pool: pg.Pool;
  readonly table: string;
}): KyselyPaginateBench {
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: options.pool }) });
  const { table } = options;
  return {
    versions: { kysely: resolvedVersion('kysely'), kyselyPaginate: resolvedVersion('kysely-paginate') },
    cursorFor(fields, row) {
      // Its encoder is typed per query; at run time it takes [key, value] pairs.
      const encode = defaultEncodeCursor as unknown as (values: Array<[string, unknown]>) => string;
      return encode(fields.map(({ field }) => [field, row[field]]));
    },
    async page(fields, after, perPage) {
      const query = db.selectFrom(table).select(['id', 'created', 'score', 'title']);
      // Its generics tie the fields to a literal table type; the table is chosen at run time here.
      const paginate = executeWithCursorPagination as unknown as (
        qb: typeof query,
        opts: {
          perPage: number;
          after?: string;
          fields: Array<{ expression: string; direction: 'asc' | 'desc' }>;
          parseCursor: (cursor: Record<string, string>) => Record<string, unknown>;
        },
      ) => Promise<{ rows: Array<{ id: number }> }>;
      const result = await paginate(query, {
        perPage,
        ...(after === undefined ? {} : { after }),
        fields: fields.map(({ field, direction }) => ({ expression: field, direction })),
        parseCursor: (cursor) =>
          Object.fromEntries(Object.entries(cursor).map(([key, text]) => [key, parseValue(key, text)])),
      });
      return result.rows;
    },
    async destroy() {
      // Kysely's destroy ends the pool it was given: the pool is this bench's own.
      await db.destroy();
    },
  };
}
