import { type CustomDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiSettings, BaseVersioning, type VersioningClass } from '@pagewise/rest';
import type { PagewiseOptions } from './pagewise-options.js';

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

/** Reads route metadata: Nest's own `Reflector` needs no instance state. */
const reflector = new Reflector();

/** The scheme instance for this route and request (a class is made per request, as DRF's views do). */
export function routeScheme(context: ExecutionContext, options: PagewiseOptions): BaseVersioning | null {
  const declared = reflector.getAllAndOverride(VERSIONING_KEY, [context.getHandler(), context.getClass()]) as
    | RouteVersioning
    | undefined;
  const scheme: RouteVersioning =
    declared !== undefined
      ? declared
      : options.versioning !== undefined
        ? options.versioning
        : // settings.ts types it loosely (it may not import versioning/); a scheme class all the same.
          ((options.settings?.defaultVersioningClass as VersioningClass | null | undefined) ?? null);
  if (scheme === null || scheme instanceof BaseVersioning) return scheme;
  return new scheme({ settings: options.settings ?? ApiSettings.defaults });
}

/** The route's namespace (`@ApiNamespace()`), handler over controller. */
export function routeNamespace(context: ExecutionContext): string | null {
  const namespace: unknown = reflector.getAllAndOverride(NAMESPACE_KEY, [
    context.getHandler(),
    context.getClass(),
  ]);
  return typeof namespace === 'string' ? namespace : null;
}
