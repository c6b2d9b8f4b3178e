import type { TestProject } from 'vitest/node';
import { type EmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres.js';
import { FALLBACK_POSTGRES_MAJOR } from './postgres-server.js';

/**
 * The Postgres server a vitest project's suites run on, when it is not the `PG_URL` server:
 * - a project of one Postgres major (`env.PAGEWISE_PG_MAJOR`, vitest.config.ts) starts that
 *   major's npm build and gives its URL to that project's files;
 * - with no `PG_URL` at all (a fresh machine), the root project starts the npm build of
 *   `FALLBACK_POSTGRES_MAJOR`, whose URL every project inherits.
 * tests/support/postgres-server.setup.ts sets `PG_URL` from it in each test process, so every
 * suite, whatever reads `PG_URL`, reaches that server. A build that cannot start fails the run
 * under `CI=true`; elsewhere its reason is given to the suites, which skip with it.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const major = project.config.env?.PAGEWISE_PG_MAJOR;
  const root = project.vitest.getRootProject() === project;
  if (major === undefined && !(root && !process.env.PG_URL)) return undefined;
  const wanted = major === undefined ? FALLBACK_POSTGRES_MAJOR : Number(major);
  let server: EmbeddedPostgres;
  try {
    server = await startEmbeddedPostgres(wanted);
  } catch (error) {
    if (process.env.CI === 'true') throw error;
    project.provide('postgresServer', { unavailable: (error as Error).message });
    return undefined;
  }
  project.provide('postgresServer', { url: server.url, major: server.major, version: server.version });
  return () => server.stop();
}
