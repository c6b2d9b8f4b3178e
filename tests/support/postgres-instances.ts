import { execFile, execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A throwaway Postgres server on a loopback port. */
export interface PostgresInstance {
  readonly port: number;
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string;
}

/** Running instances and the one call that stops them and removes their directory. */
export interface PostgresInstances {
  readonly instances: readonly PostgresInstance[];
  stop(): Promise<void>;
}

/**
 * Why throwaway instances cannot start here, or `null`: no `pg_config` on the PATH, or running as
 * root without a `postgres` user (initdb refuses root).
 */
export function postgresInstancesUnavailable(): string | null {
  try {
    execFileSync('pg_config', ['--bindir'], { stdio: 'pipe' });
  } catch {
    return 'pg_config is not on the PATH (install the Postgres server package)';
  }
  if (process.getuid?.() === 0) {
    try {
      execFileSync('id', ['-u', 'postgres'], { stdio: 'pipe' });
    } catch {
      return 'running as root and there is no postgres user to run initdb as';
    }
  }
  return null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/**
 * Starts `count` Postgres servers from the installed binaries (`pg_config --bindir`): one
 * `initdb` into a temporary directory, copied per instance, each started with `pg_ctl` on a free
 * loopback port (as the `postgres` user when running as root), trust auth, no fsync. `stop()`
 * stops them all and removes the directory; a failed start stops what had started first.
 *
 * @example
 * const { instances, stop } = await startPostgresInstances(2, ['max_prepared_transactions=0']);
 */
export async function startPostgresInstances(
  count: number,
  settings: readonly string[] = [],
): Promise<PostgresInstances> {
  const bin = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
  const root = process.getuid?.() === 0;
  const as = (command: string, args: string[]) =>
    root
      ? run('runuser', ['-u', 'postgres', '--', join(bin, command), ...args])
      : run(join(bin, command), args);
  const dir = mkdtempSync(join(tmpdir(), 'pagewise-pg-'));
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const started: string[] = [];
  const stop = async () => {
    await Promise.allSettled(
      started.map((data) => as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])),
    );
    started.length = 0;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const template = join(dir, 'template');
    await as('initdb', [
      '-D',
      template,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--no-locale',
      '--no-sync',
    ]);
    const instances: PostgresInstance[] = [];
    for (let i = 0; i < count; i += 1) {
      const data = join(dir, `n${i}`);
      await (root
        ? run('runuser', ['-u', 'postgres', '--', 'cp', '-a', template, data])
        : run('cp', ['-a', template, data]));
      // A port found free can be taken before the server binds it: retry on another.
      for (let attempt = 1; ; attempt += 1) {
        const port = await freePort();
        appendFileSync(
          join(data, 'postgresql.conf'),
          [
            `listen_addresses = '127.0.0.1'`,
            `port = ${port}`,
            `unix_socket_directories = '${dir}'`,
            'fsync = off',
            'full_page_writes = off',
            'max_connections = 30',
            ...settings,
            '',
          ].join('\n'),
        );
        try {
          await as('pg_ctl', ['-D', data, '-l', join(dir, `n${i}.log`), '-w', '-t', '30', 'start']);
          started.push(data);
          instances.push({ port, url: `postgres://postgres@127.0.0.1:${port}/postgres` });
          break;
        } catch (error) {
          if (attempt >= 3) throw error;
        }
      }
    }
    return { instances, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
