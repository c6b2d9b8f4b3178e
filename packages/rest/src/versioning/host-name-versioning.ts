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
 * The version is the first label of the host: `v1.example.org`. The host is `request.host`, as
 * the request sent it (the bindings only accept an allowed `Host`), port removed and case kept as
 * DRF keeps it: `V1.example.org` is the version `V1`. No match: the default version. Invalid: 404
 * `Invalid version in hostname.`
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
    // DRF reads `get_host()` as sent, port dropped: `V2.example.org` is the version `V2`.
    const host = request.host;
    const hostname = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
    const match = this.hostnameRegex.exec(hostname);
    if (!match) return this.defaultVersion;
    const version = match[1] ?? null;
    if (!this.isAllowedVersion(version)) throw new NotFound(this.invalidVersionMessage);
    return version;
  }
}
