import { NotFound } from '@pagewise/core';
import type { VersionLocation } from '../openapi/view-description.js';
import type { ApiRequest, RouteParams } from '../request/api-request.js';
import { BaseVersioning, type VersioningOptions } from './base-versioning.js';

/**
 * What `HeaderVersioning` takes besides the common options.
 *
 * @example
 * HeaderVersioning.withOptions({ header: 'Stripe-Version' })
 */
export interface HeaderVersioningOptions extends VersioningOptions {
  /** The request header naming the version; a bundled response names its version in it too. @default 'Api-Version' */
  header?: string;
}

/**
 * The version is a request header of its own, `Api-Version: 2025-11-15` (in the style of
 * `Stripe-Version` and `X-GitHub-Api-Version`). Missing: the default version. Invalid: 404
 * `Invalid version in "Api-Version" header.` Every response, errors included, varies on the
 * header; URLs carry no version, so `reverse` is the plain one.
 *
 * @example
 * ListView.asView({ queryset, versioningClass: HeaderVersioning.withOptions({ header: 'Stripe-Version' }) })
 */
export class HeaderVersioning extends BaseVersioning {
  /** @default 'header' */
  override readonly schemaLocation: VersionLocation = 'header';
  /** @default 'Api-Version' */
  readonly header: string;
  /** @default 'Invalid version in "<header>" header.' */
  invalidVersionMessage: string;
  override readonly varyHeaders: readonly string[];
  override readonly versionResponseHeader: string;

  constructor(options: HeaderVersioningOptions = {}) {
    super(options);
    const header = options.header ?? 'Api-Version';
    this.header = header;
    this.invalidVersionMessage = `Invalid version in "${header}" header.`;
    this.varyHeaders = Object.freeze([header]);
    this.versionResponseHeader = header;
  }

  override determineVersion(request: ApiRequest, _params?: RouteParams): string | null {
    const version = request.headers.get(this.header) ?? this.defaultVersion;
    if (!this.isAllowedVersion(version)) throw new NotFound(this.invalidVersionMessage);
    return version;
  }

  /** The header name is the parameter the document shows. */
  override schemaVersioning(namespace: string | null) {
    return { ...super.schemaVersioning(namespace), param: this.header };
  }
}
