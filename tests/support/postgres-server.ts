import { inject } from 'vitest';

/**
 * Which Postgres this test process's suites run on (tests/support/postgres-server.global.ts):
 * the npm build of one major in that major's vitest project, the npm build of
 * `FALLBACK_POSTGRES_MAJOR` when no `PG_URL` is given, the `PG_URL` server otherwise.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** The server the global setup started for this project, or why it could not. */
    postgresServer:
      | { readonly url: string; readonly major: number; readonly version: string }
      | { readonly unavailable: string }
      | undefined;
  }
}

/** The major started when no `PG_URL` is set: the one CI's own server runs. */
export const FALLBACK_POSTGRES_MAJOR = 15;

/** The major of this vitest project (`postgres-<major>` in vitest.config.ts), `undefined` in the others. */
export function postgresMajor(): number | undefined {
  const major = process.env.PAGEWISE_PG_MAJOR;
  return major === undefined ? undefined : Number(major);
}

/** The server the global setup provided to this process, if any. */
export function providedPostgres(): ReturnType<typeof inject<'postgresServer'>> {
  return inject('postgresServer');
}
