import { type ArgumentsHost, Catch, type ExceptionFilter, Injectable } from '@nestjs/common';
import { type ApiError, ApiResponse, isApiError, patchVaryHeaders } from '@pagewise/rest';
import { madePageRequest } from './page-request.js';
import { platformResponse } from './platform-response.js';

/**
 * Any Pagewise `ApiError` as Nest's `@Catch()` matches it: `isApiError`, which also knows the
 * errors of another installed copy of `@pagewise/core` by their brand.
 */
// biome-ignore lint/complexity/noStaticOnlyClass: @Catch() takes classes, which instanceof consults
class AnyApiError {
  static [Symbol.hasInstance](value: unknown): boolean {
    return isApiError(value);
  }
}

/**
 * Answers Pagewise's errors as DRF does: `{ "detail": ... }` (a `ValidationError`'s field
 * errors as they are) with the error's status, and `Vary` naming the request headers the answer
 * depends on: the error's own (`Accept` for a refused `Accept` version) and the route's
 * versioning scheme's. `404 {"detail": "Invalid cursor"}`, `404 {"detail": "Invalid page."}`,
 * `400` for an untrusted `Host`, `406 {"detail": "Invalid version in \"Accept\" header."}`.
 * Other exceptions are not caught here: Nest's own handling (and your filters) answer them.
 * `PagewiseModule` registers it globally.
 *
 * @example
 * app.useGlobalFilters(new PagewiseExceptionFilter());
 */
export class PagewiseExceptionFilter implements ExceptionFilter<ApiError> {
  catch(error: ApiError, host: ArgumentsHost): ApiError | undefined {
    // GraphQL and RPC contexts report the error themselves (its `extensions.code` included).
    if (host.getType() !== 'http') return error;
    const response = platformResponse(host);
    const answer = new ApiResponse(error.toJSON(), { status: error.status });
    const scheme = madePageRequest(host)?.versioningScheme as { varyHeaders?: unknown } | null | undefined;
    const schemeVary = Array.isArray(scheme?.varyHeaders) ? (scheme.varyHeaders as string[]) : [];
    // What the response carries already (the scheme's Vary, a CORS middleware's) is kept.
    const vary = response.get('vary');
    if (vary !== null) answer.headers.set('vary', vary);
    patchVaryHeaders(answer.headers, [...(error.vary ?? []), ...schemeVary]);
    if (response.sent) return undefined;
    const request = host.switchToHttp().getRequest<{ method?: string; raw?: { method?: string } }>();
    response.send(answer, (request.raw?.method ?? request.method ?? 'GET').toUpperCase());
    return undefined;
  }
}

Injectable()(PagewiseExceptionFilter);
Catch(AnyApiError)(PagewiseExceptionFilter);
