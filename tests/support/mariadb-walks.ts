import { fromKysely } from '@pagewise/kysely-adapter';
import {
  ApiRequest,
  type BasePagination,
  CursorPagination,
  type OrderedQuery,
  PageNumberPagination,
} from '@pagewise/rest';
import { Kysely, MysqlDialect, sql } from 'kysely';
import { createPool, type PoolOptions } from 'mysql2';

/**
 * What the MariaDB topology tests (Galera, Spider) share: a Kysely over one server, an `items`
 * table of stable rows three per second (ties on `created`), and walks that page it one request
 * at a time through any server, so a walk can go on through another one with the same link.
 */

export interface Item {
  id: number;
  created: Date;
}

// biome-ignore lint/suspicious/noExplicitAny: the tables are created at run time.
export type Db = Kysely<any>;

export const ORIGIN = 'http://testserver/items/';
export const BASE = Date.UTC(2025, 0, 1);

/** A Kysely over `url`; `session` statements run on every new connection (`SET SESSION ...`). */
export function mariadb(url: string, session: readonly string[] = [], options: PoolOptions = {}): Db {
  const pool = createPool({
    uri: url,
    connectionLimit: 4,
    timezone: 'Z',
    supportBigNumbers: true,
    connectTimeout: 5_000,
    ...options,
  });
  if (session.length > 0) {
    pool.on('connection', (connection) => {
      for (const statement of session) connection.query(statement);
    });
  }
  return new Kysely({ dialect: new MysqlDialect({ pool }) });
}

/** `created` of stable row `id` (1-based): three rows a second from BASE. */
export const createdOf = (id: number) => new Date(BASE + Math.floor((id - 1) / 3) * 1000);

/** Inserts stable rows `1..rows` into `table` (columns id, created, then `extra` values). */
export async function seedItems(
  db: Db,
  table: string,
  rows: number,
  extra: (id: number) => string = () => '',
): Promise<void> {
  for (let from = 1; from <= rows; from += 1000) {
    const values: string[] = [];
    for (let id = from; id < Math.min(from + 1000, rows + 1); id += 1) {
      values.push(`(${id}, '${createdOf(id).toISOString().replace('T', ' ').replace('Z', '')}'${extra(id)})`);
    }
    await sql.raw(`insert into ${table} values ${values.join(', ')}`).execute(db);
  }
}

/** The query a walk pages: `id, created` of `table`, keyed by `id`. */
export function itemsQuery(db: Db, table: string): OrderedQuery<Item> {
  return fromKysely(db.selectFrom(table).select(['id', 'created']), { db }) as unknown as OrderedQuery<Item>;
}

/** One page of a walk: its rows and the link to the next one. */
export async function pageAt(
  pagination: BasePagination,
  query: OrderedQuery<Item>,
  url: string,
): Promise<{ rows: Item[]; next: string | null }> {
  const rows = (await pagination.paginateQueryset(query, new ApiRequest({ url }))) ?? [];
  return {
    rows: rows.map((r) => ({ id: Number(r.id), created: new Date(r.created) })),
    next: pagination.getNextLink(),
  };
}

/** A whole walk, page after page; `before(n)` runs before page `n` (0-based), `query(n)` picks the server. */
export async function walk(
  pagination: BasePagination,
  query: (page: number) => OrderedQuery<Item>,
  before: (page: number) => Promise<void> = async () => {},
): Promise<{ rows: Item[]; pages: number }> {
  const rows: Item[] = [];
  let url: string | null = ORIGIN;
  let pages = 0;
  while (url !== null && pages < 10_000) {
    await before(pages);
    const page = await pageAt(pagination, query(pages), url);
    rows.push(...page.rows);
    url = page.next;
    pages += 1;
  }
  return { rows, pages };
}

export const cursorPagination = (pageSize: number) =>
  new CursorPagination({ pageSize, ordering: '-created' });
export const pageNumbers = (pageSize: number) => new PageNumberPagination({ pageSize });

/** What a walk saw of the stable rows `1..stable`: repeated ids (any), stable ids missing. */
export function audit(rows: readonly Item[], stable: number): { repeated: number[]; missing: number[] } {
  const counts = new Map<number, number>();
  for (const row of rows) counts.set(row.id, (counts.get(row.id) ?? 0) + 1);
  const repeated = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
  const missing: number[] = [];
  for (let id = 1; id <= stable; id += 1) if (!counts.has(id)) missing.push(id);
  return { repeated, missing };
}

/** The first neighbours not in `created desc, id desc` order, or `null`. */
export function outOfOrder(rows: readonly Item[]): [number, number] | null {
  for (let i = 1; i < rows.length; i += 1) {
    const [a, b] = [rows[i - 1]!, rows[i]!];
    const t = a.created.getTime() - b.created.getTime();
    if (t < 0 || (t === 0 && a.id < b.id)) return [a.id, b.id];
  }
  return null;
}
