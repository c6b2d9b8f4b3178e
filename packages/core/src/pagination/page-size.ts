import type { ApiRequest } from '../http/api-request.js';
import { positiveIntOr } from '../http/positive-int.js';

/**
 * DRF's `get_page_size`: the client's page size when the parameter is set and holds a positive
 * integer (clamped to `max`), otherwise `fallback` (which is not clamped).
 */
export function requestedPageSize(
  request: ApiRequest,
  param: string | null,
  max: number | null,
  fallback: number | null,
): number | null {
  if (!param) return fallback;
  return positiveIntOr(request.queryParams.get(param), fallback, { strict: true, cutoff: max });
}
