import { NotFound, replaceQueryParam } from '@pagewise/core';
import type { VersionLocation } from '../openapi/view-description.js';
import type { ApiRequest, RouteParams } from '../request/api-request.js';
import type { ReverseOptions } from '../routes/reverse.js';
import { BaseVersioning } from './base-versioning.js';

/**
 * The version is a query parameter: `?version=v2`. Absent: the default version; present but
 * empty: the version `''`. Invalid: 404 `Invalid version in query parameter.` `reverse` adds
 * the request's version to the URL.
 *
 * @example
 * const settings = new ApiSettings({ defaultVersioningClass: QueryParameterVersioning });
 */
export class QueryParameterVersioning extends BaseVersioning {
  /** @default 'query' */
  override readonly schemaLocation: VersionLocation = 'query';
  /** @default 'Invalid version in query parameter.' */
  invalidVersionMessage = 'Invalid version in query parameter.';

  override determineVersion(request: ApiRequest, _params?: RouteParams): string | null {
    const version = request.queryParams.get(this.versionParam) ?? this.defaultVersion;
    if (!this.isAllowedVersion(version)) throw new NotFound(this.invalidVersionMessage);
    return version;
  }

  override reverse(name: string, options: ReverseOptions = {}): string {
    const url = super.reverse(name, options);
    const version = options.request?.version ?? null;
    return version === null ? url : replaceQueryParam(url, this.versionParam, version);
  }
}
