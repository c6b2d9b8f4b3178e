import { NotAcceptable } from '@pagewise/core';
import { selectRenderer } from '../http/content-negotiation.js';
import { defaultRenderers } from '../http/renderers.js';
import type { VersionLocation } from '../openapi/view-description.js';
import type { ApiRequest, RouteParams } from '../request/api-request.js';
import { parseMediaType } from '../request/media-type.js';
import { BaseVersioning } from './base-versioning.js';

/**
 * The version is a parameter of the negotiated media type: `Accept: application/json;
 * version=2`, `*\/*; version=2` or `application/vnd.pagewise+json; version=2`. Invalid: 406
 * `Invalid version in "Accept" header.` Every response of a view using it varies on `Accept`.
 *
 * Views negotiate first and leave the result in `request.acceptedMediaType`; a request that was
 * not negotiated is negotiated here against JSON and HTML.
 *
 * @example
 * class ArticleList extends ListView<Article> { versioningClass = AcceptHeaderVersioning; }
 */
export class AcceptHeaderVersioning extends BaseVersioning {
  /** @default 'accept' */
  override readonly schemaLocation: VersionLocation = 'accept';
  /** @default 'Invalid version in "Accept" header.' */
  invalidVersionMessage = 'Invalid version in "Accept" header.';
  override readonly varyHeaders: readonly string[] = ['Accept'];

  override determineVersion(request: ApiRequest, _params?: RouteParams): string | null {
    const accepted =
      request.acceptedMediaType ??
      selectRenderer({ accept: request.headers.get('accept') }, defaultRenderers).acceptedMediaType;
    const version = parseMediaType(accepted).params[this.versionParam] ?? this.defaultVersion;
    if (!this.isAllowedVersion(version))
      throw new NotAcceptable(this.invalidVersionMessage, { vary: this.varyHeaders });
    return version;
  }
}
