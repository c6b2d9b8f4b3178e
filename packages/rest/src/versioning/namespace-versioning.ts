import { NotFound } from '@pagewise/core';
import type { VersionLocation } from '../openapi/view-description.js';
import type { ApiRequest, RouteParams } from '../request/api-request.js';
import type { ReverseOptions } from '../routes/reverse.js';
import { BaseVersioning } from './base-versioning.js';

/**
 * The version is the namespace of the matched route (`routes.include('/v1', 'v1', ...)`).
 * Nested namespaces (`v1:nested`) are tried component by component and the first allowed one
 * wins; none allowed: 404 `Invalid version in URL path. Does not match any version namespace.`
 * No namespace: the default version, unchecked (as in DRF). `reverse` looks the name up in the
 * version's namespace (`v1:article-list`).
 *
 * @example
 * routes.include('/v1', 'v1', (v1) => v1.add('/articles/', 'article-list', list));
 */
export class NamespaceVersioning extends BaseVersioning {
  /** @default 'namespace' */
  override readonly schemaLocation: VersionLocation = 'namespace';
  /** @default 'Invalid version in URL path. Does not match any version namespace.' */
  invalidVersionMessage = 'Invalid version in URL path. Does not match any version namespace.';

  override determineVersion(request: ApiRequest, _params?: RouteParams): string | null {
    if (!request.namespace) return this.defaultVersion;
    for (const candidate of request.namespace.split(':')) {
      if (this.isAllowedVersion(candidate)) return candidate;
    }
    throw new NotFound(this.invalidVersionMessage);
  }

  override reverse(name: string, options: ReverseOptions = {}): string {
    const request = options.request ?? null;
    if (request === null || request.version === null) return super.reverse(name, options);
    return super.reverse(this.getVersionedViewname(name, request), options);
  }

  /**
   * The route name in the request's version namespace.
   *
   * @example
   * scheme.getVersionedViewname('article-list', request) // 'v1:article-list'
   */
  getVersionedViewname(name: string, request: ApiRequest): string {
    return `${request.version}:${name}`;
  }
}
