// Requests and responses (request/), content negotiation and renderers.

export {
  ApiRequest,
  type ApiRequestInit,
  type BodySource,
  type FromHttpInit,
  type NodeRequestLike,
  type RouteParams,
} from '../request/api-request.js';
export { ApiResponse, jsonReplacer, toWire, type WireResponse } from '../request/api-response.js';
export { type MediaType, mediaTypePrecedence, parseAccept, parseMediaType } from '../request/media-type.js';
export {
  DEFAULT_ALLOWED_HOSTS,
  DisallowedHost,
  isAllowedHost,
  type OriginEvidence,
  splitDomainPort,
  type TrustedOriginOptions,
  trustedOrigin,
} from '../request/trusted-origin.js';
export { patchVaryHeaders } from '../request/vary.js';
export {
  forcedRenderer,
  type Negotiated,
  type NegotiationInput,
  selectRenderer,
} from './content-negotiation.js';
export {
  browsableHtmlRenderer,
  defaultRenderers,
  jsonRenderer,
  type RenderContext,
  type Renderer,
} from './renderers.js';
