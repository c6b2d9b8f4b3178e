import { ConfigurationError, replaceQueryParam } from '@pagewise/core';
import { type ApiRequest, REQUEST_ORIGIN } from '../request/api-request.js';
import { ApiSettings } from '../settings.js';
import { NoReverseMatch, REVERSE_PATH, Routes } from './routes.js';

/**
 * What `reverse` takes besides the route name.
 *
 * @example
 * reverse('article-detail', { kwargs: { pk: 7 }, request, format: 'json' })
 */
export interface ReverseOptions {
  /** Positional path arguments. @default [] */
  readonly args?: ReadonlyArray<string | number>;
  /** Keyword path arguments. @default {} */
  readonly kwargs?: Readonly<Record<string, string | number>>;
  /** Makes the URL absolute and applies the request's versioning scheme. @default null */
  readonly request?: ApiRequest | null;
  /** Adds a `format` keyword argument (a route with a `:format` parameter). @default null */
  readonly format?: string | null;
  /** The route table. @default request.routes */
  readonly routes?: Routes | null;
  /** Where `urlFormatOverride` is read. @default the scheme's settings, else ApiSettings.defaults */
  readonly settings?: ApiSettings;
}

/** A versioning scheme as `reverse` sees it. */
interface ReversingScheme {
  reverse(name: string, options: ReverseOptions): string;
  readonly settings?: ApiSettings;
}

function isReversingScheme(value: unknown): value is ReversingScheme {
  return typeof (value as Partial<ReversingScheme> | null)?.reverse === 'function';
}

/**
 * DRF's `_reverse`: the named route's path (absolute against the request's origin when a
 * request is given), ignoring versioning. Throws `NoReverseMatch`.
 *
 * @example
 * plainReverse('another', { routes }) // '/another/'
 */
export function plainReverse(name: string, options: ReverseOptions = {}): string {
  return plainReverseWith(name, options, null, '');
}

const NO_ARGS: readonly string[] = Object.freeze([]);

/**
 * `plainReverse` with one more keyword argument, `extraName` (unless the caller's `kwargs` has
 * it): `URLPathVersioning`'s version, added without copying the options once per serialized row.
 * Core's own; not exported from the package.
 */
export function plainReverseWith(
  name: string,
  options: ReverseOptions,
  extraName: string | null,
  extraValue: string,
): string {
  const request = options.request ?? null;
  const routes = options.routes ?? (request?.routes instanceof Routes ? request.routes : null);
  if (routes === null) {
    throw new ConfigurationError(
      'reverse() needs `routes`, or a request routed by a binding (request.routes)',
    );
  }
  const kwargs = options.format ? { ...options.kwargs, format: options.format } : (options.kwargs ?? {});
  const path = routes[REVERSE_PATH](name, options.args ?? NO_ARGS, kwargs, extraName, extraValue);
  // The path is appended, never resolved, so a value can't turn it into another origin.
  if (request === null) return path;
  return (
    (typeof request[REQUEST_ORIGIN] === 'function' ? request[REQUEST_ORIGIN]() : request.url.origin) + path
  );
}

/**
 * DRF's `reverse`: applies the request's versioning scheme (URL path keyword, namespace prefix,
 * query parameter; host and Accept schemes keep the URL), falls back to the unversioned route
 * when the scheme's reverse finds none (`NoReverseMatch`), and carries the request's `?format=`
 * over.
 *
 * @example
 * reverse('article-detail', { kwargs: { pk: 7 }, request }) // 'http://localhost:3000/v2/articles/7/'
 */
export function reverse(name: string, options: ReverseOptions = {}): string {
  const request = options.request ?? null;
  const scheme = request?.versioningScheme;
  let url: string;
  if (isReversingScheme(scheme)) {
    try {
      url = scheme.reverse(name, options);
    } catch (error) {
      if (!(error instanceof NoReverseMatch)) throw error;
      url = plainReverse(name, options);
    }
  } else {
    url = plainReverse(name, options);
  }
  const settings =
    options.settings ?? (isReversingScheme(scheme) ? scheme.settings : undefined) ?? ApiSettings.defaults;
  return preserveBuiltinQueryParams(url, request, settings);
}

/**
 * DRF's `preserve_builtin_query_params`: copies the request's `urlFormatOverride` parameter
 * (`?format=json`) onto `url`.
 *
 * @example
 * preserveBuiltinQueryParams('http://testserver/a/', requestWithFormatJson) // 'http://testserver/a/?format=json'
 */
export function preserveBuiltinQueryParams(
  url: string,
  request: ApiRequest | null,
  settings: ApiSettings = ApiSettings.defaults,
): string {
  const param = settings.urlFormatOverride;
  if (request === null || !param) return url;
  const value = request.queryParams.get(param);
  if (value === null) return url;
  // Relative results stay relative: replaceQueryParam needs an absolute URL to work on.
  if (url.startsWith('/')) {
    const absolute = replaceQueryParam(`http://relative.invalid${url}`, param, value);
    return absolute.slice('http://relative.invalid'.length);
  }
  return replaceQueryParam(url, param, value);
}
