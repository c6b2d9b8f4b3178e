import { ApiRequest, type CursorPagination, type OrderedQuery } from '@pagewise/rest';

/** A cursor page's row ids and links. */
export interface CursorPageIds {
  readonly ids: number[];
  readonly next: string | null;
  readonly previous: string | null;
}

/**
 * The ids of the cursor page at `url` and its links, as `pagination` makes them of `query`.
 *
 * @example
 * const { ids, next } = await cursorPage(new CursorPagination({ pageSize: 3 }), fromArray(rows), url);
 */
export async function cursorPage<Row extends { readonly id: number }>(
  pagination: CursorPagination,
  query: OrderedQuery<Row>,
  url: string,
): Promise<CursorPageIds> {
  const page = await pagination.paginateQueryset(query, new ApiRequest({ url }));
  return {
    ids: page!.map((row) => row.id),
    next: pagination.getNextLink(),
    previous: pagination.getPreviousLink(),
  };
}
