import { ApiError } from '@pagewise/core';
import type { ApiRequest } from '../request/api-request.js';
import { DEFAULT_MAX_BODY_BYTES, PayloadTooLarge } from '../request/body-limit.js';
import { parseMediaType } from '../request/media-type.js';

export { PayloadTooLarge };

/**
 * 415, DRF's `UnsupportedMediaType`.
 * @example throw new UnsupportedMediaType('text/plain'); // 'Unsupported media type "text/plain" in request.'
 */
export class UnsupportedMediaType extends ApiError {
  constructor(mediaType: string) {
    super(`Unsupported media type "${mediaType}" in request.`, {
      status: 415,
      code: 'unsupported_media_type',
    });
  }
}

/**
 * 400 for a body that does not parse, DRF's `ParseError`.
 * @example throw new ParseError('JSON parse error - Unexpected token'); // 400
 */
export class ParseError extends ApiError {
  constructor(detail = 'Malformed request.') {
    super(detail, { status: 400, code: 'parse_error' });
  }
}

/**
 * DRF's `request.data` for JSON bodies: an empty body is `{}`; a body of another media type is
 * 415; JSON that does not parse is 400 `JSON parse error - ...`; more than `maxBytes` is 413, as
 * soon as that many bytes are read (a chunked body is never buffered past the cap).
 *
 * @example
 * const data = await readRequestData(request); // { name: 'Ada' }
 */
export async function readRequestData(
  request: ApiRequest,
  maxBytes = DEFAULT_MAX_BODY_BYTES,
): Promise<unknown> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw new PayloadTooLarge(maxBytes);
  const text = await request.text(maxBytes);
  if (new TextEncoder().encode(text).byteLength > maxBytes) throw new PayloadTooLarge(maxBytes);
  if (text.trim() === '') return {};
  const contentType = request.headers.get('content-type') ?? '';
  const media = parseMediaType(contentType);
  const type = `${media.type}/${media.subtype}`;
  if (!(media.type === 'application' && (media.subtype === 'json' || media.subtype.endsWith('+json')))) {
    throw new UnsupportedMediaType(contentType === '' ? '' : type);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ParseError(`JSON parse error - ${(error as Error).message}`);
  }
}
