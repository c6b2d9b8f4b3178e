import { ApiResponse } from '@pagewise/rest';

/**
 * A page of the engine's page functions (`cursorPage`, `pageNumberPage`, `limitOffsetPage`): its
 * rows, DRF's body around serialized rows and its `Link` header.
 */
export interface EnginePageLike<Row = unknown> {
  readonly rows: readonly Row[];
  readonly headers: Readonly<Record<string, string>>;
  body(data: readonly unknown[]): object;
}

/**
 * A page of `@pagewise/rest`'s paginators (`pagination.paginate(query, request)`), which makes
 * its own `ApiResponse`.
 */
export interface RestPageLike<Row = unknown> {
  readonly rows: readonly Row[];
  response(data: readonly unknown[]): ApiResponse;
}

/** Either kind of page value. */
export type PageValue<Row = unknown> = EnginePageLike<Row> | RestPageLike<Row>;

function isRestPage(value: object): value is RestPageLike {
  const page = value as Partial<RestPageLike>;
  return Array.isArray(page.rows) && typeof page.response === 'function';
}

function isEnginePage(value: object): value is EnginePageLike {
  const page = value as Partial<EnginePageLike>;
  return (
    Array.isArray(page.rows) &&
    typeof page.body === 'function' &&
    typeof page.headers === 'object' &&
    page.headers !== null
  );
}

/**
 * The answer for a page with serialized rows: DRF's body (`{ next, previous, results }`, or
 * `{ count, next, previous, results }`) around `data` and the page's `Link` header. A handler
 * returning a page itself answers its rows as they are; this is for rows that are serialized first.
 *
 * @example
 * const page = await cursorPage(query, url, { pageSize: 20, ordering: '-id' });
 * return pageResponse(page, page.rows.map(({ id, title }) => ({ id, title })));
 */
export function pageResponse<Row>(page: PageValue<Row>, data: readonly unknown[] = page.rows): ApiResponse {
  if (isRestPage(page)) return page.response(data);
  return new ApiResponse(page.body(data), { headers: page.headers });
}

/**
 * What a handler's value answers as: an `ApiResponse` as it is, a page value (engine or DRF
 * layer) as its body and headers; anything else is not Pagewise's (`null`).
 *
 * @example
 * asApiResponse(await cursorPage(query, url, { pageSize: 2 }))?.headers.get('link')
 */
export function asApiResponse(value: unknown): ApiResponse | null {
  if (value instanceof ApiResponse) return value;
  if (typeof value !== 'object' || value === null) return null;
  if (isRestPage(value) || isEnginePage(value)) return pageResponse(value);
  if (isApiResponseLike(value))
    return new ApiResponse(value.data, { status: value.status, headers: value.headers });
  return null;
}

/** An `ApiResponse` of another copy of `@pagewise/rest`, which `instanceof` does not know. */
function isApiResponseLike(value: object): value is Pick<ApiResponse, 'status' | 'headers' | 'data'> {
  const response = value as Partial<ApiResponse>;
  return (
    typeof response.status === 'number' &&
    response.headers instanceof Headers &&
    'data' in response &&
    typeof response.toFetchResponse === 'function'
  );
}
