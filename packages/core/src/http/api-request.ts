import { QueryParams } from './query-params.js';

/** Route keyword arguments, such as `{ version: 'v1', id: '7' }`. */
export type RouteParams = Readonly<Record<string, string | undefined>>;

/** What `new ApiRequest()` takes. */
export interface ApiRequestInit {
  /** Absolute URL of the request (string or `URL`). */
  url: string | URL;
  /** @default 'GET' */
  method?: string;
  headers?: HeadersInit;
  /** Path keyword arguments captured by the route, e.g. `{ version: 'v1' }`. */
  params?: RouteParams;
  /** Namespace of the matched route, e.g. `'v1'` or `'v1:nested'`. */
  namespace?: string | null;
}

/**
 * One incoming request as Pagewise sees it. A directly constructed request is trusted as given;
 * the HTTP bindings build it from the socket and check the host first.
 *
 * @example
 * const request = new ApiRequest({ url: 'http://testserver/?page=2' });
 * request.queryParams.get('page'); // '2'
 */
export class ApiRequest {
  readonly url: URL;
  readonly method: string;
  readonly headers: Headers;
  readonly params: RouteParams;
  readonly namespace: string | null;
  readonly queryParams: QueryParams;
  /** Set by versioning: the version this request asked for. */
  version: string | null = null;
  /** Set by versioning: the scheme that determined `version` (used by `reverse`). */
  versioningScheme: unknown = null;
  /** Set by the bindings: the route table, used by `reverse` when none is passed. */
  routes: unknown = null;

  constructor(init: ApiRequestInit) {
    this.url = new URL(init.url);
    this.method = (init.method ?? 'GET').toUpperCase();
    this.headers = new Headers(init.headers);
    this.params = Object.freeze({ ...(init.params ?? {}) });
    this.namespace = init.namespace ?? null;
    this.queryParams = new QueryParams(this.url.search);
  }

  /**
   * Django's `build_absolute_uri`: without a location, scheme + host + path + query (no `?` when the
   * query is empty, never a fragment); with one, that location resolved against the request.
   *
   * @example
   * new ApiRequest({ url: 'http://testserver/a/?x=1' }).buildAbsoluteUri('/b/') // 'http://testserver/b/'
   */
  buildAbsoluteUri(location?: string): string {
    if (location !== undefined) return new URL(location, this.url).href;
    return `${this.url.origin}${this.url.pathname}${this.url.search}`;
  }
}
