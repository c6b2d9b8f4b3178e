import type { OrderedQuery, PositionValue } from '../contract/ordered-query.js';
import {
  type OrderingCheck,
  resolveKeyOrder,
  uniqueKeyColumns,
  withoutOrdering,
} from '../contract/ordering.js';
import type { CursorEncryptionKey } from '../cursor/cursor-encryption.js';
import type { CursorSecret } from '../cursor/cursor-signature.js';
import { cursorProtection, readCursorAsync } from '../cursor/cursor-window.js';
import { ConfigurationError, NotFound } from '../errors.js';
import type { CursorOrderingOptions } from './paginate-cursor.js';

/** Options of `streamRows`. */
export interface StreamRowsOptions extends CursorOrderingOptions {
  /** Rows per statement (each fetches `batchSize + 1`, the look-ahead row). @default 1000 */
  batchSize?: number;
  /**
   * Resumes strictly after the row a token names: a Relay edge's cursor, or a `nextCursor` /
   * `next` link token for the same ordering and secret. A token of another kind (a previous
   * page's, one carrying DRF's offset) or a bad one rejects with `NotFound` (`Invalid cursor`).
   * @default null (from the first row)
   */
  after?: string | null;
  /** The key(s) `after` was signed with, as `CursorPagination`'s option. @default null */
  cursorSecret?: CursorSecret | null;
  /** The key(s) `after` was encrypted with, as `CursorPagination`'s option. @default null */
  cursorEncryptionKey?: CursorEncryptionKey | null;
  /** The lifetime `after` was minted under, as `CursorPagination`'s option. @default null */
  cursorTtl?: number | null;
}

/**
 * Every row of `query` once, in order, fetched by keyset in batches: one statement per batch of
 * at most `batchSize + 1` rows, each starting strictly after the last row of the batch before,
 * never with OFFSET, so memory stays at one batch and the cost per batch stays flat on an
 * index. Fetching is lazy: leaving the loop (`break`, `return`, a throw) stops it.
 *
 * Needs a unique key (the tiebreaker a keyset walk stands on); a query without one is a
 * `ConfigurationError`. `after` resumes a job where a token says: an edge's cursor or a page's
 * `nextCursor`, e.g. the checkpoint a crashed export left.
 *
 * @example
 * for await (const article of streamRows(fromKysely(db.selectFrom('articles').selectAll(), { db }), {
 *   ordering: 'id',
 * })) {
 *   await write(article);
 * }
 * // select * from "articles" order by "id" asc limit $1          -- 1001
 * // select * from "articles" where "id" > $1 order by "id" asc limit $2
 */
export async function* streamRows<Row, const Options extends StreamRowsOptions = StreamRowsOptions>(
  query: OrderedQuery<Row>,
  options: Options & OrderingCheck<Row, Options> = {} as Options & OrderingCheck<Row, Options>,
): AsyncIterable<Row> {
  const batchSize = options.batchSize ?? 1000;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) {
    throw new ConfigurationError(`streamRows: batchSize must be a positive integer, got ${batchSize}`);
  }
  const order = resolveKeyOrder(query, options.ordering);
  if (uniqueKeyColumns(query).length === 0) {
    throw new ConfigurationError(
      `streamRows: the ${query.adapter} adapter's query has no unique key, so a keyset walk could skip ` +
        'or repeat rows that tie; give the adapter one (e.g. fromKysely(query, { uniqueKey: "id" })).',
    );
  }
  const start = await readCursorAsync(options.after, order, {
    ...cursorProtection(options),
    offsetCutoff: null,
  });
  if (start !== null && (start.reverse || start.offset !== 0)) throw new NotFound('Invalid cursor');
  let after: readonly PositionValue[] | null = start?.position ?? null;
  for (;;) {
    let fetched: Awaited<ReturnType<typeof query.fetch>>;
    try {
      fetched = await query.fetch({ order, after, offset: 0, limit: batchSize + 1 });
    } catch (error) {
      throw withoutOrdering(error, query, options.ordering);
    }
    const count = Math.min(fetched.length, batchSize);
    for (let i = 0; i < count; i += 1) yield fetched[i]!.row;
    if (fetched.length <= batchSize) return;
    after = fetched[batchSize - 1]!.position;
  }
}
