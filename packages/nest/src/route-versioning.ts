import { type CustomDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  type ApiRequest,
  ApiSettings,
  type BaseVersioning,
  Gone,
  patchVaryHeaders,
  type VersioningClass,
} from '@pagewise/rest';
import type { PagewiseOptions } from './pagewise-options.js';
import { mergeLink, type PlatformResponse, platformResponse } from './platform-response.js';

const VERSIONING_KEY = '@pagewise/nest.versioning';
const NAMESPACE_KEY = '@pagewise/nest.namespace';

/** A route's scheme as written: a versioning class, an instance, or `null` for none. */
export type RouteVersioning = VersioningClass | BaseVersioning | null;

/**
 * Controller or handler decorator: the versioning scheme of these routes (DRF's
 * `versioning_class`), over the module's `versioning`; `null` versions nothing. The handler's
 * own wins over its controller's. The scheme sets `request.version` (`@ApiVersion()`) before
 * the handler runs, and refuses a version it does not allow as DRF does: 404 `Invalid version in
 * URL path.`, 406 `Invalid version in "Accept" header.` (with `Vary: Accept`), 404 for the
 * namespace, host name and query parameter schemes.
 * @default the module's `versioning`
 *
 * @example
 * @Controller(':version/articles')
 * @UseVersioning(URLPathVersioning.withOptions({ allowedVersions: ['v1', 'v2'] }))
 * class ArticlesController {}
 */
export function UseVersioning(scheme: RouteVersioning): CustomDecorator<string> {
  return SetMetadata(VERSIONING_KEY, scheme);
}

/**
 * Controller or handler decorator: the route namespace `NamespaceVersioning` reads
 * (`request.namespace`; DRF's URL namespace, such as `'v1'` or `'v1:nested'`), which Nest's
 * routing does not have. @default null
 *
 * @example
 * @Controller('v1/articles')
 * @ApiNamespace('v1')
 * class ArticlesV1Controller {}
 */
export function ApiNamespace(namespace: string): CustomDecorator<string> {
  return SetMetadata(NAMESPACE_KEY, namespace);
}

/** Reads route metadata: Nest's own `Reflector` keeps no state of its own. */
const reflector = new Reflector();

function routeMetadata(context: ExecutionContext, key: string): unknown {
  return reflector.getAllAndOverride(key, [context.getHandler(), context.getClass()]);
}

/** The route's scheme as declared: `@UseVersioning()`, else the module's `versioning` or settings'. */
export function routeVersioning(context: ExecutionContext, options: PagewiseOptions): RouteVersioning {
  const declared = routeMetadata(context, VERSIONING_KEY) as RouteVersioning | undefined;
  if (declared !== undefined) return declared;
  if (options.versioning !== undefined) return options.versioning;
  // settings.ts types it loosely (it may not import versioning/); a scheme class all the same.
  return (options.settings?.defaultVersioningClass as VersioningClass | null | undefined) ?? null;
}

/** The scheme instance for this route and request (a class is made per request, as DRF's views do). */
export function routeScheme(context: ExecutionContext, options: PagewiseOptions): BaseVersioning | null {
  const scheme = routeVersioning(context, options);
  // A class is a function; an instance may come from another copy of @pagewise/rest, which
  // `instanceof BaseVersioning` would not know.
  if (scheme === null || typeof scheme !== 'function') return scheme;
  return new scheme({ settings: options.settings ?? ApiSettings.defaults });
}

/** The route's namespace (`@ApiNamespace()`), handler over controller. */
export function routeNamespace(context: ExecutionContext): string | null {
  const namespace = routeMetadata(context, NAMESPACE_KEY);
  return typeof namespace === 'string' ? namespace : null;
}

/**
 * DRF's `initial()` for versioning: the scheme's `Vary` on the response first (its errors vary
 * too), then `request.version` (the version that serves it: under a dated bundle, a date between
 * two versions is the earlier one) and `request.versioningScheme`, then the version's lifecycle:
 * 410 past its sunset, else its `Deprecation`, `Sunset` and `Link` headers. A `defaultVersion`
 * function is asked when the request names no version; a promise it answers is waited for (the
 * answer is then a promise too). Throws (or rejects with) what the scheme throws for a version
 * it does not allow.
 */
export function determineRouteVersion(
  context: ExecutionContext,
  request: ApiRequest,
  scheme: BaseVersioning,
): void | Promise<void> {
  const response = platformResponse(context);
  if (scheme.varyHeaders.length > 0) patchVaryHeaders(response, scheme.varyHeaders);
  const version = scheme.requestVersion(request, request.params);
  if (typeof version === 'object' && version !== null) {
    return version.then((determined) => serveVersion(response, request, scheme, determined));
  }
  serveVersion(response, request, scheme, version);
}

function serveVersion(
  response: PlatformResponse,
  request: ApiRequest,
  scheme: BaseVersioning,
  version: string | null,
): void {
  request.version = scheme.servedVersion(version);
  request.versioningScheme = scheme;
  const status = scheme.versionStatus(request.version);
  if (status === null) return;
  if (status.gone) throw new Gone(scheme.sunsetDetail(status.version));
  const { deprecation, sunset, link } = status.headers;
  if (deprecation !== undefined) response.set('deprecation', deprecation);
  if (sunset !== undefined) response.set('sunset', sunset);
  if (link !== undefined) mergeLink(response, link, false);
}
