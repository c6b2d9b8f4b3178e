/**
 * Why a walk stopped with an error:
 * - `http_error`: the server answered with a status outside 200-299;
 * - `invalid_body`: a 2xx answer that is not a page (not JSON, neither an array nor an object with
 *   a `results` array, or a `next` that is neither a string nor `null`);
 * - `invalid_link`: a `next` link that is not a URL;
 * - `loop`: a `next` link naming a page this walk already fetched;
 * - `cross_origin`: a `next` link or a redirect to another origin than the first URL's (see
 *   `allowCrossOrigin`).
 */
export type PagewiseClientErrorCode =
  | 'http_error'
  | 'invalid_body'
  | 'invalid_link'
  | 'loop'
  | 'cross_origin';

/** What a `PagewiseClientError` is made of. */
export interface PagewiseClientErrorInit {
  readonly status: number;
  readonly code: PagewiseClientErrorCode;
  readonly detail: string;
  readonly url: string;
  readonly body?: unknown;
}

// A registered symbol, so two copies of this package (or a bundled one) still recognise each other's errors.
const BRAND: unique symbol = Symbol.for('@pagewise/client.PagewiseClientError') as never;

/**
 * A walk's failure. For a non-2xx answer, `status` is that answer's status and `detail` the
 * body's `detail` (Pagewise and DRF send `{ "detail": "..." }`), else the status text.
 * For the other codes, `status` is the status of the page whose `next` could not be followed.
 *
 * @example
 * try {
 *   for await (const item of iterateResults(url)) console.log(item);
 * } catch (error) {
 *   if (isPagewiseClientError(error) && error.status === 404) console.log(error.detail); // 'Invalid page.'
 * }
 */
export class PagewiseClientError extends Error {
  /** HTTP status of the answer involved. */
  readonly status: number;
  /** Machine-readable reason; stable across versions. */
  readonly code: PagewiseClientErrorCode;
  /** Human-readable reason: the body's `detail` for a non-2xx answer. */
  readonly detail: string;
  /** The URL that was fetched (for `loop` and `cross_origin`: the link that was refused). */
  readonly url: string;
  /** The parsed JSON body of the answer (its text when it is not JSON), when there was one. */
  readonly body: unknown;
  declare readonly [BRAND]: true;

  constructor(init: PagewiseClientErrorInit) {
    super(`${init.detail} (${init.code}, status ${init.status}, ${init.url})`);
    this.name = 'PagewiseClientError';
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.url = init.url;
    this.body = init.body;
  }
}

// On the prototype, so errors hold only their own fields.
Object.defineProperty(PagewiseClientError.prototype, BRAND, { value: true });

/**
 * Whether `value` is a `PagewiseClientError`, also one from another copy of this package
 * (where `instanceof` fails).
 *
 * @example
 * if (isPagewiseClientError(error) && error.code === 'http_error') retryLater(error.status);
 */
export function isPagewiseClientError(value: unknown): value is PagewiseClientError {
  return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
}
