import { ConfigurationError } from '../errors.js';
import { positiveIntOr } from '../url/positive-int.js';

/** The page-size options of a page function: the size it serves, and whether a client may choose. */
export interface PageSizeSettings {
  /** Rows per page: a positive integer. */
  readonly pageSize: number;
  /** The parameter a client chooses the size with. @default null */
  readonly pageSizeQueryParam?: string | null | undefined;
  /** Upper bound of a client-chosen page size. @default null */
  readonly maxPageSize?: number | null | undefined;
}

/**
 * The page size a request is served with (DRF's `get_page_size`): the client's, clamped to
 * `maxPageSize`, when `pageSizeQueryParam` is set and the value is a positive integer; otherwise
 * `pageSize`, which must be a positive integer (else a `ConfigurationError` naming `fn`).
 *
 * @example
 * pageSizeOf('cursorPage', new Map([['page_size', '500']]), { pageSize: 20, pageSizeQueryParam: 'page_size', maxPageSize: 100 }) // 100
 */
export function pageSizeOf(
  fn: string,
  params: ReadonlyMap<string, string>,
  options: PageSizeSettings,
): number {
  const size = options.pageSize;
  if (!Number.isSafeInteger(size) || size < 1) {
    throw new ConfigurationError(`${fn}: pageSize must be a positive integer, got ${size}`);
  }
  const param = options.pageSizeQueryParam;
  if (!param) return size;
  return positiveIntOr(params.get(param) ?? null, size, {
    strict: true,
    cutoff: options.maxPageSize ?? null,
  });
}

/**
 * A limit a client may choose (`limitOffsetPage`): the client's positive integer under `param`,
 * clamped to `max`, else `fallback`.
 */
export function requestedLimit(
  params: ReadonlyMap<string, string>,
  param: string,
  max: number | null | undefined,
  fallback: number | null,
): number | null {
  return positiveIntOr(params.get(param) ?? null, fallback, { strict: true, cutoff: max ?? null });
}
