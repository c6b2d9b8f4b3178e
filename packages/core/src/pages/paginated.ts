/**
 * The response bodies of the built-in styles, as `page.response(data).data` types them. Key order
 * is part of the contract: page number and limit/offset `{ count, next, previous, results }`,
 * cursor `{ next, previous, results }` (`{ count, next, previous, results }` with a count).
 */

/**
 * The body of a page-number page, key order included. `countMode` is there only when the count
 * was not exact (`count: 'estimated' | 'none'` options) or came from a count cache; `count` is
 * `null` with `'none'`. `countAge` is there only when a count cache answered: whole seconds
 * since the count was taken.
 *
 * @example
 * const body: PageNumberPaginated<Article> = page.response(articles).data;
 */
export interface PageNumberPaginated<T> {
  readonly count: number | null;
  readonly countMode?: 'exact' | 'estimated' | 'none';
  readonly countAge?: number;
  readonly next: string | null;
  readonly previous: string | null;
  readonly results: T[];
}

/**
 * The body of a limit/offset page, key order included.
 *
 * @example
 * const body: LimitOffsetPaginated<Article> = page.response(articles).data;
 */
export interface LimitOffsetPaginated<T> {
  readonly count: number;
  /** Only when `countTimeout` cut the count short: `'estimated'`. */
  readonly countMode?: 'estimated';
  readonly next: string | null;
  readonly previous: string | null;
  readonly results: T[];
}

/**
 * The body of a cursor page, key order included.
 *
 * @example
 * const body: CursorPaginated<Article> = page.response(articles).data;
 */
export interface CursorPaginated<T> {
  /** Only with a `count` option: the total (see `PageNumberPaginated` for `countMode` and `countAge`). */
  readonly count?: number | null;
  readonly countMode?: 'exact' | 'estimated' | 'none';
  readonly countAge?: number;
  readonly next: string | null;
  readonly previous: string | null;
  readonly results: T[];
}

/**
 * The body of any built-in style's page.
 *
 * @example
 * const body: Paginated<Article> = (await pagination.paginate(query, request))!.response(articles).data;
 */
export type Paginated<T> = PageNumberPaginated<T> | LimitOffsetPaginated<T> | CursorPaginated<T>;
