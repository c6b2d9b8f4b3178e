import { NotFound } from '@pagewise/core';
import type { VersionLocation } from '../openapi/view-description.js';
import type { ApiRequest, RouteParams } from '../request/api-request.js';
import { plainReverseWith, type ReverseOptions } from '../routes/reverse.js';
import { BaseVersioning } from './base-versioning.js';

/**
 * The version is a path parameter of the route: `/:version/articles/`. Missing: the default
 * version. Invalid: 404 `Invalid version in URL path.` `reverse` puts the request's version in
 * the `version` keyword (unless the caller gave one).
 *
 * @example
 * routes.add('/:version(v1|v2)/articles/', 'article-list', ArticleList.asView({ versioningClass: URLPathVersioning }));
 */
export class URLPathVersioning extends BaseVersioning {
  /** @default 'path' */
  override readonly schemaLocation: VersionLocation = 'path';
  /** @default 'Invalid version in URL path.' */
  invalidVersionMessage = 'Invalid version in URL path.';

  override determineVersion(request: ApiRequest, params: RouteParams = request.params): string | null {
    const version = params[this.versionParam] ?? this.defaultVersion;
    if (!this.isAllowedVersion(version)) throw new NotFound(this.invalidVersionMessage);
    return version;
  }

  override reverse(name: string, options: ReverseOptions = {}): string {
    const version = options.request?.version ?? null;
    if (version === null) return super.reverse(name, options);
    // `super.reverse` is the plain reverse: with the version as one more keyword (the caller's
    // own `version` keyword wins), without copying the options once per serialized row.
    return plainReverseWith(name, options, this.versionParam, version);
  }
}
