/**
 * Brand on Pagewise's error classes. An adapter may get its own copy of `@pagewise/core` (a nested
 * `node_modules`, another version), whose classes are not this copy's: `instanceof` fails across
 * copies, so the `is...Error` checks also accept this registry-wide symbol's value.
 */
export const ERROR_KIND: unique symbol = Symbol.for('@pagewise/core.error-kind');

/** The kinds of error recognised across copies of `@pagewise/core`. */
export type ErrorKind = 'ApiError' | 'ConfigurationError' | 'InvalidBoundError';

/** Whether `value` carries the brand of `kind`, whichever copy of core made it. */
export function hasErrorKind(value: unknown, kind: ErrorKind): boolean {
  return (
    value instanceof Error && (value as Partial<Record<typeof ERROR_KIND, unknown>>)[ERROR_KIND] === kind
  );
}

/**
 * Base class of every error an API answers with a status: DRF's `APIException`.
 * The body of the answer is `{ "detail": "<detail>" }`.
 *
 * @example
 * throw new ApiError('Slow down.', { status: 429, code: 'throttled' });
 */
export class ApiError extends Error {
  /** HTTP status of the answer. @default 500 */
  readonly status: number;
  /** Machine-readable code. @default 'error' */
  readonly code: string;
  /** Human-readable message, sent as `detail`. */
  readonly detail: string;
  /**
   * Request headers the answer depends on, merged into `Vary` wherever the error is answered
   * (a refused `Accept` version varies on `Accept` even when no view set a scheme). @default []
   */
  readonly vary: readonly string[];

  constructor(detail: string, options: { status?: number; code?: string; vary?: readonly string[] } = {}) {
    super(detail);
    this.name = new.target.name;
    this.status = options.status ?? 500;
    this.code = options.code ?? 'error';
    this.detail = detail;
    this.vary = Object.freeze([...(options.vary ?? [])]);
  }

  /** Brand for `isApiError`, shared by every subclass. */
  get [ERROR_KIND](): ErrorKind {
    return 'ApiError';
  }

  /** `status` under the name Express's and Fastify's error handlers read. */
  get statusCode(): number {
    return this.status;
  }

  /** Whether the message may reach the client: Express's default handler then sends it. */
  get expose(): boolean {
    return this.status < 500;
  }

  /** `{ code }`, where GraphQL servers (graphql-js, Yoga, Apollo) look for an error's code. */
  get extensions(): { readonly code: string } {
    return { code: this.code };
  }

  /** The JSON body DRF sends for this error. */
  toJSON(): Readonly<Record<string, unknown>> {
    return { detail: this.detail };
  }

  /**
   * DRF's answer as a Web `Response`: `toJSON()` as JSON with `status`, and `Vary` when the error
   * depends on a request header. Hono's default error handler answers with it.
   *
   * @example
   * app.onError((error) => (isApiError(error) ? error.getResponse() : new Response('', { status: 500 })));
   */
  getResponse(): Response {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.vary.length > 0) headers.vary = this.vary.join(', ');
    return new Response(JSON.stringify(this.toJSON()), { status: this.status, headers });
  }
}

/**
 * 404. `Invalid page.`, `Invalid cursor` and URL-path version errors use it.
 * @example throw new NotFound('Invalid page.');
 */
export class NotFound extends ApiError {
  constructor(detail = 'Not found.') {
    super(detail, { status: 404, code: 'not_found' });
  }
}

/**
 * 406. Raised when no renderer or no version satisfies the `Accept` header.
 * @example throw new NotAcceptable('Invalid version in "Accept" header.');
 */
export class NotAcceptable extends ApiError {
  constructor(
    detail = 'Could not satisfy the request Accept header.',
    options: { vary?: readonly string[] } = {},
  ) {
    super(detail, { status: 406, code: 'not_acceptable', vary: options.vary ?? ['Accept'] });
  }
}

/**
 * Field errors as DRF answers them: each field's messages, `non_field_errors` for the whole input.
 * @example
 * { name: ['This field is required.'] }
 */
export type FieldErrors = Readonly<Record<string, readonly string[]>>;

/**
 * 400. Bad input that is not a lookup failure, such as an untrusted `Host`. Given field errors,
 * the body is those errors, as DRF's serializer validation answers.
 * @example
 * throw new ValidationError('Invalid HTTP_HOST header.');
 * throw new ValidationError({ name: ['This field is required.'] }); // body: { "name": [...] }
 */
export class ValidationError extends ApiError {
  /** The field errors, `null` for a plain `detail`. */
  readonly fields: FieldErrors | null;

  constructor(detail: string | FieldErrors = 'Invalid input.', code = 'invalid') {
    super(typeof detail === 'string' ? detail : 'Invalid input.', { status: 400, code });
    this.fields =
      typeof detail === 'string'
        ? null
        : Object.freeze(
            Object.fromEntries(Object.entries(detail).map(([k, v]) => [k, Object.freeze([...v])])),
          );
  }

  override toJSON(): Readonly<Record<string, unknown>> {
    return this.fields ?? super.toJSON();
  }
}

/**
 * A programming error in how Pagewise was set up (DRF raises `AssertionError` or
 * `ImproperlyConfigured`). It is not a client error and is not caught by the bindings' 4xx handling.
 */
export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigurationError';
  }

  /** Brand for `isConfigurationError`. */
  get [ERROR_KIND](): ErrorKind {
    return 'ConfigurationError';
  }
}

/**
 * Whether `value` is an `ApiError` (any subclass), from this or another installed copy of core.
 * @example if (isApiError(error)) return new Response(JSON.stringify(error.toJSON()), { status: error.status });
 */
export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError || hasErrorKind(value, 'ApiError');
}

/**
 * Whether `value` is a `ConfigurationError`, from this or another installed copy of core.
 * @example expect(isConfigurationError(error)).toBe(true);
 */
export function isConfigurationError(value: unknown): value is ConfigurationError {
  return value instanceof ConfigurationError || hasErrorKind(value, 'ConfigurationError');
}
