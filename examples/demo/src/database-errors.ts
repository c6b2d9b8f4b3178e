import { ApiError } from '@pagewise/core';

/**
 * Seconds a client is asked to wait (`Retry-After`) when the database cannot answer: about as
 * long as a request waits for a pooled connection before giving up, and as a restart takes.
 */
export const RETRY_AFTER_SECONDS = 5;

/** 503 for a request the database could not answer (connection lost, server restarting, pool busy). */
export class ServiceUnavailable extends ApiError {
  constructor(detail = 'The database is unavailable; try again shortly.') {
    super(detail, { status: 503, code: 'service_unavailable' });
  }
}

/** Errors that mean "the database connection went away", not "this request is wrong". */
export function isConnectionError(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (
    typeof code === 'string' &&
    (/^(08|57P0)/.test(code) || ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code))
  ) {
    return true;
  }
  return (
    typeof message === 'string' &&
    /Connection terminated|connection timeout|terminating connection|not queryable/i.test(message)
  );
}

/**
 * Whether `error` means the database could not take the request: its connection failed, or no
 * pooled connection came free in time (pg.Pool's `connectionTimeoutMillis` rejects with
 * `timeout exceeded when trying to connect`, no code). Either is a 503, not the request's fault.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (isConnectionError(error)) return true;
  const { message } = (error ?? {}) as { message?: unknown };
  return typeof message === 'string' && /^timeout exceeded when trying to connect$/.test(message);
}

/** The server-side line for a request the database could not answer: the detail clients never see. */
export function logDatabaseUnavailable(where: string, error: unknown): void {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  console.error(
    `pagewise demo: ${where}: the database is unavailable: ${String(message ?? error)}` +
      (typeof code === 'string' ? ` (${code})` : ''),
  );
}
