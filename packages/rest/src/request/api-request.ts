import { LinkTemplate, QueryParams, ValidationError } from '@pagewise/core';
import { readFetchBody, readNodeBody } from './body-limit.js';
import { type TrustedOriginOptions, trustedOrigin } from './trusted-origin.js';

/** Route keyword arguments, such as `{ version: 'v1', id: '7' }`. */
export type RouteParams = Readonly<Record<string, string | undefined>>;

/**
 * Where a request's body comes from: its text, or a function reading it once when a view asks.
 * The function is handed the most bytes the reader accepts (`readRequestData`'s cap): a reader
 * that streams should stop there with `PayloadTooLarge` rather than buffer the rest.
 * @example
 * new ApiRequest({ url, method: 'POST', body: JSON.stringify({ name: 'Ada' }) })
 */
export type BodySource = string | ((maxBytes?: number) => Promise<string>);

/** What `new ApiRequest()` takes. */
export interface ApiRequestInit {
  /** Absolute URL of the request (string or `URL`). */
  url: string | URL;
  /** @default 'GET' */
  method?: string;
  /** Anything `new Headers()` takes (spelled so, as DOM's `HeadersInit` is missing from Node-only type setups). */
  headers?: ConstructorParameters<typeof Headers>[0];
  /** Path keyword arguments captured by the route, e.g. `{ version: 'v1' }`. */
  params?: RouteParams;
  /** Namespace of the matched route, e.g. `'v1'` or `'v1:nested'`. */
  namespace?: string | null;
  /** The body, read only when a view asks (`text()`). @default '' */
  body?: BodySource | null;
}

/** What `ApiRequest.fromFetch` and `ApiRequest.fromNode` take besides the request. */
export interface FromHttpInit extends TrustedOriginOptions {
  /** Path keyword arguments captured by the route. */
  params?: RouteParams;
  /** Namespace of the matched route. */
  namespace?: string | null;
  /**
   * The scheme of the connection, when the binding knows it (a Node socket behind a Fetch
   * runtime). `fromFetch` otherwise takes the scheme of `request.url`, which runtimes build from
   * the connection; an absolute-form target (`GET https://host/ HTTP/1.1`) never sets it here.
   * @default undefined (`fromNode`: the socket; `fromFetch`: the scheme of `request.url`)
   */
  protocol?: 'http' | 'https';
  /**
   * The `Host` the connection received, when the binding reads it from the runtime's own request
   * (a Node `IncomingMessage` behind a Fetch runtime): `null` when the client sent none (HTTP/1.0),
   * which is a 400 as in `fromNode`, where the runtime would have filled in its listening address.
   * @default undefined (`fromFetch`: the `Host` header, else the host of `request.url`)
   */
  host?: string | null;
  /**
   * The body when a framework has already consumed the stream (Express `req.body`, Fastify
   * `request.body`). @default read from the request
   */
  body?: BodySource | null;
}

/**
 * The parts of a Node `IncomingMessage` (or an Express request) Pagewise reads; any real
 * `IncomingMessage` fits.
 */
export interface NodeRequestLike {
  readonly method?: string | undefined;
  /** The request target, `/articles/?page=2`. */
  readonly url?: string | undefined;
  /** Express keeps the unmounted target here. */
  readonly originalUrl?: string | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** A TLS socket (`encrypted: true`) makes the scheme `https`. */
  readonly socket?: unknown;
}

/**
 * Path and query of a request target; an absolute-form target keeps only those (its scheme and
 * host are the client's word, not the connection's). An unparsable one is a 400.
 */
function pathAndQuery(target: string): string {
  if (/^https?:\/\//i.test(target)) {
    try {
      const url = new URL(target);
      return url.pathname + url.search;
    } catch {
      throw new ValidationError('Invalid request target.', 'invalid_request_target');
    }
  }
  return target.startsWith('/') ? target : `/${target}`;
}

/** Express's `req.body` once a body parser ran, else the stream itself (an `IncomingMessage`). */
function nodeBody(message: NodeRequestLike): BodySource | null {
  const parsed = (message as { body?: unknown }).body;
  if (parsed !== undefined) return typeof parsed === 'string' ? parsed : JSON.stringify(parsed);
  const stream = message as Partial<AsyncIterable<unknown>>;
  if (typeof stream[Symbol.asyncIterator] !== 'function') return null;
  return (maxBytes) => readNodeBody(stream, maxBytes);
}

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * `request.url.origin`, read once per URL: `reverse` appends every reversed path to it, once per
 * serialized row. Core's own; not exported from the package.
 */
export const REQUEST_ORIGIN = Symbol('pagewise.requestOrigin');

/**
 * What `routedApiRequest` and `fromFetch` build a request from: parts already parsed (the routed
 * request's, or the runtime's URL and headers), taken over instead of parsed again. Not exported:
 * only this module makes one, so every other caller's init is copied as before.
 */
class RoutedInit implements ApiRequestInit {
  constructor(
    readonly url: URL,
    readonly method: string,
    readonly headers: Headers,
    readonly queryParams: QueryParams,
    readonly params: RouteParams,
    readonly namespace: string | null,
    readonly body: BodySource | null,
    /** The scheme and host as the request wrote them, when they differ from `url.origin`. */
    readonly givenOrigin: string | null = null,
  ) {}
}

/** The scheme and authority an absolute URL's text starts with (no user info). */
const GIVEN_ORIGIN = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#@]*)(?=[/?#]|$)/;

/**
 * The origin `text` names as written (`http://API.Example.com`, `http://example.com:80`), when it
 * is `url`'s origin in other letters or with its default port written out; `null` when the text
 * is the URL's own origin or names none. Django's `build_absolute_uri` keeps the `Host` header as
 * sent, so links built from this request keep it too.
 */
function givenOriginOf(text: string, url: URL, origin: string): string | null {
  const after = text.charAt(origin.length);
  if (text.startsWith(origin) && (after === '' || after === '/' || after === '?' || after === '#'))
    return null;
  const match = GIVEN_ORIGIN.exec(text);
  if (match === null) return null;
  const given = `${url.protocol}//${match[2]}`;
  try {
    return new URL(given).origin === origin ? given : null;
  } catch {
    return null;
  }
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
  /**
   * Set by content negotiation: the accepted media type with its parameters
   * (`application/json; version=2`), which `AcceptHeaderVersioning` reads. @default null
   */
  acceptedMediaType: string | null = null;
  /** Set by content negotiation: the renderer chosen for the response. @default null */
  acceptedRenderer: unknown = null;
  readonly #body: BodySource | null;
  /** The query `queryParams` was parsed from. */
  readonly #search: string;
  #text: Promise<string> | undefined;
  /** The `href` `#origin` was read from (`url` is a mutable `URL`: a changed one is read again). */
  #originHref: string | undefined;
  #origin = '';
  /**
   * The origin as the URL's text wrote it, `null` when that is `url.origin` (see `givenOriginOf`);
   * `undefined` until the origin is first read, which reads it from `#givenText`.
   */
  #givenOrigin: string | null | undefined;
  /** The URL's text as given, until `#givenOrigin` is read from it. */
  #givenText: string | null;
  /** `url.href` when the request was made: a changed `url` no longer has the given origin. */
  readonly #givenHref: string;

  constructor(init: ApiRequestInit) {
    if (init instanceof RoutedInit) {
      this.url = init.url;
      this.method = init.method;
      this.headers = init.headers;
      this.queryParams = init.queryParams;
      this.#givenOrigin = init.givenOrigin;
      this.#givenText = null;
    } else {
      this.url = new URL(init.url);
      this.method = (init.method ?? 'GET').toUpperCase();
      this.headers = new Headers(init.headers);
      this.queryParams = new QueryParams(this.url.search);
      // Read with the origin, when links first need it: many requests never build one.
      this.#givenText = typeof init.url === 'string' ? init.url : null;
      this.#givenOrigin = this.#givenText === null ? null : undefined;
    }
    this.#givenHref = this.url.href;
    this.#search = this.url.search;
    this.params = Object.freeze({ ...(init.params ?? {}) });
    this.namespace = init.namespace ?? null;
    this.#body = init.body ?? null;
  }

  /**
   * The body as text, read once (later calls answer the same text); `''` without one. With
   * `maxBytes`, the first read stops as soon as the body goes past it and rejects with
   * `PayloadTooLarge` (413), whether or not the request declared a `Content-Length`.
   *
   * @example
   * JSON.parse(await request.text(1_048_576))
   */
  text(maxBytes?: number): Promise<string> {
    const body = this.#body;
    this.#text ??=
      body === null ? Promise.resolve('') : typeof body === 'string' ? Promise.resolve(body) : body(maxBytes);
    return this.#text;
  }

  /**
   * The origin links are built from, read again only when `url` changed since (see
   * `REQUEST_ORIGIN`): the scheme and host as the request named them (`http://API.Example.com`),
   * as Django keeps the `Host` header, else `url.origin`.
   */
  [REQUEST_ORIGIN](): string {
    const href = this.url.href;
    if (href !== this.#originHref) {
      const origin = this.url.origin;
      if (href === this.#givenHref && this.#givenOrigin === undefined) {
        // `url` is still the one the text was parsed into, so the text names its origin.
        this.#givenOrigin = givenOriginOf(this.#givenText!, this.url, origin);
        this.#givenText = null;
      }
      this.#origin = href === this.#givenHref ? (this.#givenOrigin ?? origin) : origin;
      this.#originHref = href;
    }
    return this.#origin;
  }

  /**
   * The host (and port) as the request named it, letters' case kept: Django's `get_host()` once
   * the bindings checked it against `allowedHosts`. `HostNameVersioning` reads it.
   *
   * @example
   * new ApiRequest({ url: 'http://API.Example.com:8000/' }).host // 'API.Example.com:8000'
   */
  get host(): string {
    const origin = this[REQUEST_ORIGIN]();
    return origin.slice(origin.indexOf('//') + 2);
  }

  /**
   * Django's `build_absolute_uri`: without a location, scheme + host + path + query (no `?` when the
   * query is empty, never a fragment); with one, that location resolved against the request. The
   * host is written as the request named it.
   *
   * @example
   * new ApiRequest({ url: 'http://testserver/a/?x=1' }).buildAbsoluteUri('/b/') // 'http://testserver/b/'
   */
  buildAbsoluteUri(location?: string): string {
    const origin = this[REQUEST_ORIGIN]();
    if (location === undefined) return `${origin}${this.url.pathname}${this.url.search}`;
    const resolved = new URL(location, this.url);
    return resolved.origin === this.url.origin && resolved.username === '' && resolved.password === ''
      ? `${origin}${resolved.pathname}${resolved.search}${resolved.hash}`
      : resolved.href;
  }

  /**
   * `new LinkTemplate(url)` for `url`, `buildAbsoluteUri()` by default: made from the pairs
   * `queryParams` already holds when `url` is this request's own http(s) URL with the query they
   * were parsed from, so the links of a page do not parse the URL and its query again.
   *
   * @example
   * request.linkTemplate().with('cursor', token) // 'http://testserver/items?cursor=...'
   */
  linkTemplate(url: string = this.buildAbsoluteUri()): LinkTemplate {
    const target = this.url;
    const { protocol, search } = target;
    if ((protocol === 'http:' || protocol === 'https:') && search === this.#search) {
      const base = this[REQUEST_ORIGIN]() + target.pathname;
      if (url === base + search) return new LinkTemplate({ base, query: this.queryParams.entries() });
    }
    return new LinkTemplate(url);
  }

  /**
   * A request from a Web `Request` (Hono, Deno, Bun, workers). The URL is rebuilt from the `Host`
   * header (or the request URL's host) only once that host is in `allowedHosts`, or from
   * `publicOrigin`; `X-Forwarded-*` count only with `trustProxy`. Throws `DisallowedHost` (400).
   *
   * @example
   * app.get('*', (c) => handle(ApiRequest.fromFetch(c.req.raw, { allowedHosts: ['api.example.org'] })));
   */
  static fromFetch(request: Request, init: FromHttpInit = {}): ApiRequest {
    const url = new URL(request.url);
    const origin = trustedOrigin(
      {
        host: init.host !== undefined ? init.host : (request.headers.get('host') ?? url.host),
        protocol: init.protocol ?? (url.protocol === 'https:' ? 'https' : 'http'),
        forwardedHost: request.headers.get('x-forwarded-host'),
        forwardedProto: request.headers.get('x-forwarded-proto'),
      },
      init,
    );
    const target = origin + url.pathname + url.search;
    const body = init.body ?? ((maxBytes?: number) => readFetchBody(request, maxBytes));
    // The URL as the runtime parsed it, when the trusted origin is its own (the common case), and
    // the request's own headers (a Fetch request's are its own copy): nothing parsed or copied twice.
    if (target === url.href && request.headers instanceof Headers) {
      return new ApiRequest(
        new RoutedInit(
          url,
          request.method.toUpperCase(),
          request.headers,
          new QueryParams(url.search),
          init.params ?? {},
          init.namespace ?? null,
          body,
        ),
      );
    }
    return new ApiRequest({
      url: target,
      method: request.method,
      headers: request.headers,
      body,
      ...(init.params ? { params: init.params } : {}),
      ...(init.namespace !== undefined ? { namespace: init.namespace } : {}),
    });
  }

  /**
   * A request from a Node `IncomingMessage` (node:http, Express, Fastify's `request.raw`), with
   * the same host checks as `fromFetch`. The scheme is `https` on a TLS socket.
   *
   * @example
   * http.createServer((req, res) => { const request = ApiRequest.fromNode(req); ... });
   */
  static fromNode(message: NodeRequestLike, init: FromHttpInit = {}): ApiRequest {
    const headers = new Headers();
    for (const [name, value] of Object.entries(message.headers)) {
      if (value === undefined || name.startsWith(':')) continue;
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
    }
    const origin = trustedOrigin(
      {
        host: headerValue(message.headers.host) ?? headerValue(message.headers[':authority']),
        protocol: (message.socket as { encrypted?: boolean } | null | undefined)?.encrypted
          ? 'https'
          : 'http',
        forwardedHost: headerValue(message.headers['x-forwarded-host']),
        forwardedProto: headerValue(message.headers['x-forwarded-proto']),
      },
      init,
    );
    return new ApiRequest({
      url: origin + pathAndQuery(message.originalUrl ?? message.url ?? '/'),
      method: message.method ?? 'GET',
      headers,
      body: init.body ?? nodeBody(message),
      ...(init.params ? { params: init.params } : {}),
      ...(init.namespace !== undefined ? { namespace: init.namespace } : {}),
    });
  }
}

/**
 * DRF's `clone_request` (internal, not on any entry point): the same request with another method,
 * for OPTIONS to ask the view's permission checks about a write. What views set on a request
 * (version, scheme, routes, negotiated renderer) is copied; the body is read through `request`.
 */
export function cloneApiRequest(request: ApiRequest, method: string): ApiRequest {
  const clone = new ApiRequest(
    new RoutedInit(
      request.url,
      method.toUpperCase(),
      request.headers,
      request.queryParams,
      request.params,
      request.namespace,
      (maxBytes?: number) => request.text(maxBytes),
      givenOriginOfRequest(request),
    ),
  );
  clone.version = request.version;
  clone.versioningScheme = request.versioningScheme;
  clone.routes = request.routes;
  clone.acceptedMediaType = request.acceptedMediaType;
  clone.acceptedRenderer = request.acceptedRenderer;
  return clone;
}

/**
 * The bindings' routed request (internal, not on any entry point): `incoming` with the route's
 * `params` and `namespace`, the body read through `incoming` (once), `version` and the other
 * per-view fields fresh. URL, headers and query parameters are `incoming`'s own objects, not
 * copies: the bindings drop `incoming` once it is routed, so nothing is parsed twice.
 */
export function routedApiRequest(
  incoming: ApiRequest,
  params: RouteParams,
  namespace: string | null,
): ApiRequest {
  return new ApiRequest(
    new RoutedInit(
      incoming.url,
      incoming.method,
      incoming.headers,
      incoming.queryParams,
      params,
      namespace,
      (maxBytes?: number) => incoming.text(maxBytes),
      givenOriginOfRequest(incoming),
    ),
  );
}

/** The origin `request` builds links from, when it is not its URL's own. */
function givenOriginOfRequest(request: ApiRequest): string | null {
  const origin = request[REQUEST_ORIGIN]();
  return origin === request.url.origin ? null : origin;
}
