import { NotFound } from '@pagewise/core';
import type { VersionLocation } from '../openapi/view-description.js';
import type { ApiRequest, RouteParams } from '../request/api-request.js';
import { BaseVersioning, type VersioningOptions } from './base-versioning.js';

/**
 * Options of `HostNameVersioning`.
 *
 * @example
 * new HostNameVersioning({ hostnameRegex: /^api-(v\d+)\.example\.org$/ })
 */
export interface HostNameVersioningOptions extends VersioningOptions {
  /**
   * Its first group is the version. @default DRF's /^([a-zA-Z0-9]+)\.[a-zA-Z0-9]+\.[a-zA-Z0-9]+$/
   */
  hostnameRegex?: RegExp;
}

/**
 * The version is the first label of the host: `v1.example.org`. The host is the one of
 * `request.url` (the bindings only put an allowed `Host` there), port removed. No match: the
 * default version. Invalid: 404 `Invalid version in hostname.`
 *
 * @example
 * class ArticleList extends ListView<Article> { versioningClass = HostNameVersioning; }
 */
export class HostNameVersioning extends BaseVersioning {
  /** @default 'host' */
  override readonly schemaLocation: VersionLocation = 'host';
  /** @default 'Invalid version in hostname.' */
  invalidVersionMessage = 'Invalid version in hostname.';
  /** Its first group is the version. @default DRF's three-label regex */
  hostnameRegex: RegExp = /^([a-zA-Z0-9]+)\.[a-zA-Z0-9]+\.[a-zA-Z0-9]+$/;

  constructor(options: HostNameVersioningOptions = {}) {
    super(options);
    if (options.hostnameRegex) this.hostnameRegex = options.hostnameRegex;
  }

  override determineVersion(request: ApiRequest, _params?: RouteParams): string | null {
    const match = this.hostnameRegex.exec(request.url.hostname);
    if (!match) return this.defaultVersion;
    const version = match[1] ?? null;
    if (!this.isAllowedVersion(version)) throw new NotFound(this.invalidVersionMessage);
    return version;
  }
}
