import { type ApiError, isApiError } from '@pagewise/core';

/**
 * The Pagewise error a GraphQL server's error stands for, looking through the wrappers graphql-js
 * and the servers put around what a resolver threw (`originalError`); `null` for any other error.
 * A wrapper is looked through only when it says what it wraps (the same message, as graphql-js's
 * `locatedError` copies it): an app's own error that merely holds a Pagewise error is not one, so
 * its message (which may hold anything) stays masked.
 */
function apiErrorIn(error: unknown): ApiError | null {
  let current: unknown = error;
  for (let depth = 0; current != null && depth < 8; depth += 1) {
    if (isApiError(current)) return current;
    const inner = (current as { originalError?: unknown }).originalError;
    if (
      inner == null ||
      (current as { message?: unknown }).message !== (inner as { message?: unknown }).message
    )
      return null;
    current = inner;
  }
  return null;
}

/**
 * Whether a GraphQL error stands for a Pagewise client error (an `ApiError` below 500: an invalid
 * cursor, a negative count): one whose message and `extensions.code` the client should see. For a
 * server's masking hook (Apollo's `formatError`, Yoga's `maskError`).
 *
 * @example
 * new ApolloServer({ formatError: (formatted, error) => (isClientApiError(error) ? formatted : { message: 'Internal server error' }) })
 */
export function isClientApiError(error: unknown): boolean {
  const found = apiErrorIn(error);
  return found !== null && found.status < 500;
}

/**
 * graphql-yoga's `maskedErrors.maskError` that lets Pagewise's client errors through with their
 * message and `extensions.code`, and masks every other error as `mask` does (Yoga masks whatever is
 * not a `GraphQLError`, and a resolver's `Invalid cursor` is not). Server-side errors, Pagewise's
 * included, stay masked.
 *
 * @example
 * import { createYoga, maskError } from 'graphql-yoga';
 * createYoga({ schema, maskedErrors: { maskError: unmaskApiErrors(maskError) } });
 */
export function unmaskApiErrors<Rest extends unknown[], Masked>(
  mask: (error: unknown, ...rest: Rest) => Masked,
): (error: unknown, ...rest: Rest) => Masked {
  return (error, ...rest) => (isClientApiError(error) ? (error as Masked) : mask(error, ...rest));
}
