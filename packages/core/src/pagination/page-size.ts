import type { ApiRequest } from '../request/api-request.js';
import { positiveIntOr } from '../request/positive-int.js';

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
