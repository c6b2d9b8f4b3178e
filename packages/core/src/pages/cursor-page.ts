import type { OrderedQuery } from '../contract/ordered-query.js';
import type { KeyTerm, OrderingCheck, OrderingInput } from '../contract/ordering.js';
import {
  type CountMode,
  countFieldsOf,
  countKeys,
  countPlan,
  type PageCountFields,
  type PageCountOptions,
} from '../contract/page-count.js';
import type { Cursor } from '../cursor/cursor-codec.js';
import type { CursorEncryptionKey } from '../cursor/cursor-encryption.js';
import type { CursorSecret } from '../cursor/cursor-signature.js';
import { cursorProtection, keysetPage } from '../cursor/cursor-window.js';
import { onPublicOrigin } from '../url/public-origin.js';
import { requestUrl } from '../url/query-string.js';
import { type WarningHook, warnOnce, warnUnbounded } from '../warnings.js';
import { pageSizeOf } from './page-size.js';
import { PageValue } from './page-value.js';
import type { CursorPaginated } from './paginated.js';

/** A page's count fields without a count. */
const NO_COUNT: PageCountFields = Object.freeze({ count: null, countMode: 'none', countAgeMs: null });

/**
 * Options of `cursorPage`: DRF's `CursorPagination` options in camelCase.
 *
 * @example
 * const feed: CursorPageOptions = { pageSize: 50, ordering: '-published_at', cursorSecret: process.env.CURSOR_SECRET };
 */
export interface CursorPageOptions extends PageCountOptions {
  /** Rows per page: a positive integer. */
  pageSize: number;
  /**
   * Field names with an optional `-`, or terms with `nulls`; the query's unique key is appended as
   * the tiebreaker. Written in the call, it is checked against the query's row type: a field the
   * rows lack is a compile error. @default the query's own ordering, else '-created'
   */
  ordering?: OrderingInput | null;
  /** @default 'cursor' */
  cursorQueryParam?: string;
  /** Lets the client choose the page size with this parameter. @default null */
  pageSizeQueryParam?: string | null;
  /** Upper bound of a client-chosen page size. @default null */
  maxPageSize?: number | null;
  /** Largest residual offset a cursor may carry (only without a unique key). @default 1000 */
  offsetCutoff?: number | null;
  /** Signs cursors with HMAC-SHA256 (a list: the first signs, every one verifies). @default null */
  cursorSecret?: CursorSecret | null;
  /**
   * Encrypts cursors with AES-256-GCM (Web Crypto): unreadable and tamper-proof. A key is 32
   * characters or more; a list rotates keys (the first encrypts, every one decrypts). Where it is
   * set, plain and signed cursors are `Invalid cursor`. @default null
   */
  cursorEncryptionKey?: CursorEncryptionKey | null;
  /**
   * Milliseconds a cursor stays valid; older ones are `Invalid cursor`. Needs `cursorSecret` or
   * `cursorEncryptionKey`, else `ConfigurationError`. @default null (never expire)
   */
  cursorTtl?: number | null;
  /** 404 detail for a cursor that cannot be used. @default 'Invalid cursor' */
  invalidCursorMessage?: string;
  /** Longest cursor accepted and minted, in characters. @default DEFAULT_MAX_CURSOR_LENGTH (4096) */
  maxCursorLength?: number;
  /**
   * A total beside the page: `exact` counts, `estimated` asks the adapter for an estimate; the
   * count runs beside the page's one keyset statement, never before it. The body is then
   * `{ count, next, previous, results }` (with `countMode` / `countAge` as page numbers have
   * them). @default 'none' (no count: `{ next, previous, results }`)
   */
  count?: CountMode;
  /**
   * Receives `PaginationWarning` (a client-chosen size without `maxPageSize`), once per hook (once
   * per options object without one). @default emitWarning
   */
  onWarning?: WarningHook;
  /**
   * The origin links are built on (`https://api.example.org`), in place of `url`'s own: a
   * framework builds its request URL from the `Host` header (Hono's `c.req.url`), so without it a
   * client chooses the host in every link. With it, `url` may be a path alone (Express's
   * `req.originalUrl`). @default null (`url`'s origin, trusted as given)
   */
  publicOrigin?: string | null;
}

/**
 * One cursor page as a frozen value: its rows, its links (absolute URLs made from the page's URL,
 * DRF's rules) and what a response is made of. `body(data)` is DRF's `{ next, previous, results }`
 * around the serialized rows; `headers` holds the RFC 8288 `Link` header when there is a link.
 *
 * @example
 * const page = await cursorPage(query, request.url, { pageSize: 20 });
 * return Response.json(page.body(page.rows.map(serialize)), { headers: page.headers });
 */
export interface CursorPage<Row> {
  readonly rows: readonly Row[];
  /** Absolute URL of the next page, or `null` on the last. */
  readonly next: string | null;
  /** Absolute URL of the previous page, or `null` on the first. */
  readonly previous: string | null;
  /** `{ link: '<...>; rel="next", <...>; rel="prev"' }` when there is a link, else `{}`. */
  readonly headers: Readonly<Record<string, string>>;
  /** DRF's body around `data`, keys in DRF's order. */
  body<T>(data: readonly T[]): CursorPaginated<T>;
  /** The page size this request was served with (the client's, when it may choose). */
  readonly pageSize: number;
  /** The ordering positions are taken over, the tiebreaker included. */
  readonly order: readonly KeyTerm[];
  /** The cursor this page was asked for, decoded; `null` for the first page. */
  readonly cursor: Cursor | null;
  /** The total, with `count` configured (an estimate when `countMode` says so); else `null`. */
  readonly count: number | null;
  /** How the total was found; `'none'` without a count. */
  readonly countMode: CountMode;
  /** Milliseconds since a count cache took the count; `null` when it was taken for this request. */
  readonly countAgeMs: number | null;
}

/** A cursor page value (see `PageValue`). */
class CursorPageValue<Row> extends PageValue<Row> implements CursorPage<Row> {
  declare pageSize: number;
  declare order: readonly KeyTerm[];
  declare cursor: Cursor | null;
  declare count: number | null;
  declare countMode: CountMode;
  declare countAgeMs: number | null;

  constructor(
    rows: Row[],
    next: string | null,
    previous: string | null,
    pageSize: number,
    order: readonly KeyTerm[],
    cursor: Cursor | null,
    counted: PageCountFields,
  ) {
    super(rows, next, previous);
    this.pageSize = pageSize;
    this.order = order;
    this.cursor = cursor;
    this.count = counted.count;
    this.countMode = counted.countMode;
    this.countAgeMs = counted.countAgeMs;
    Object.freeze(this);
  }

  body<T>(data: readonly T[]): CursorPaginated<T> {
    const { next, previous } = this;
    if (this.countMode === 'none') return { next, previous, results: data as T[] };
    return { ...countKeys(this), next, previous, results: data as T[] } as CursorPaginated<T>;
  }
}

/**
 * The cursor page a URL asks for (DRF's `CursorPagination`, without its artifacts): positions hold
 * every ordering field plus the query's unique key, so following `next` from the first page visits
 * every row once and `previous` of `next` is the same page. One statement of `pageSize + 1` rows,
 * index-seekable on Kysely. A bad, tampered or foreign cursor rejects with `NotFound`
 * (`Invalid cursor`). `url` is trusted as given: check the `Host` before (`@pagewise/rest`'s
 * bindings do).
 *
 * @example
 * app.get('/articles', async (c) => {
 *   const page = await cursorPage(fromKysely(db.selectFrom('articles').selectAll(), { db }), c.req.url, feed);
 *   return c.json(page.body(page.rows.map(serialize)), 200, page.headers);
 * });
 */
export async function cursorPage<Row, const Options extends CursorPageOptions = CursorPageOptions>(
  query: OrderedQuery<Row>,
  url: string | URL,
  options: Options & OrderingCheck<Row, Options>,
): Promise<CursorPage<Row>> {
  const { params, links } = requestUrl(onPublicOrigin(url, options.publicOrigin));
  const param = options.cursorQueryParam ?? 'cursor';
  const pageSize = pageSizeOf('cursorPage', params, options);
  // Neither file is entered for the common page: no encryption, no lifetime, no count.
  const protection =
    options.cursorEncryptionKey == null && options.cursorTtl == null
      ? { secret: options.cursorSecret ?? null }
      : cursorProtection(options);
  const counting =
    options.count === undefined || options.count === 'none'
      ? null
      : countPlan('cursorPage', query, options, 'none');
  if (options.pageSizeQueryParam && (options.maxPageSize ?? null) === null) {
    const chooser = `pageSizeQueryParam '${options.pageSizeQueryParam}'`;
    warnUnbounded('cursorPage', chooser, 'maxPageSize', warnOnce(options));
  }
  const {
    rows,
    order,
    cursor,
    next: nextToken,
    previous: previousToken,
    counted,
  } = await keysetPage(query, {
    pageSize,
    ordering: options.ordering,
    token: params.get(param) ?? null,
    ...protection,
    offsetCutoff: options.offsetCutoff === undefined ? 1000 : options.offsetCutoff,
    maxLength: options.maxCursorLength,
    invalidMessage: options.invalidCursorMessage,
    count: counting?.take ?? null,
  });
  const [next, previous] = links.withEach(param, [nextToken ?? undefined, previousToken ?? undefined]) as [
    string | null,
    string | null,
  ];
  const fields = counted === null ? NO_COUNT : countFieldsOf(counted);
  return new CursorPageValue(rows, next, previous, pageSize, order, cursor, fields);
}
