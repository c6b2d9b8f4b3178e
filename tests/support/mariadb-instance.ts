import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createConnection } from 'mysql2/promise';
import { freePort } from './free-port.js';

/**
 * Throwaway MariaDB servers for topology tests (Galera nodes, Spider shards and heads): Debian's
 * `mariadbd` on free loopback ports, each with its own data directory, socket, pid file and error
 * log in a temporary folder that is removed with every server in it when the test ends or the
 * process exits. Every command starts with `--no-defaults`: `/etc/mysql/my.cnf` names the system
 * server's datadir, port and socket, which these must never touch. The servers run as the `mysql`
 * user (`--user=mysql`; Galera's rsync state transfer fails as root), their folders owned by it.
 * `mariadb-install-db` runs once per workspace; each server starts from a copy.
 */

const run = promisify(execFile);
export const MARIADBD = '/usr/sbin/mariadbd';
const INSTALL_DB = '/usr/bin/mariadb-install-db';

/** One server: started, killed with SIGKILL, started again with the same arguments. */
export interface MariadbServer {
  readonly name: string;
  readonly port: number;
  readonly dir: string;
  /** `mysql://root@127.0.0.1:<port>/<database>` (empty root password, loopback only). */
  url(database?: string): string;
  pid(): number | null;
  /** Starts it (again) with its arguments plus `extra`, and waits until it answers. */
  start(extra?: readonly string[]): Promise<void>;
  /** SIGKILL, as a crash or an OOM kill: no shutdown, no flush. */
  kill(): Promise<void>;
  /** SIGTERM and wait: a clean shutdown. Idempotent. */
  stop(): Promise<void>;
  /** The last lines of its error log. */
  log(lines?: number): string;
  /** The arguments it runs with (`--no-defaults` first). */
  readonly args: readonly string[];
}

export interface MariadbWorkspace {
  readonly dir: string;
  readonly servers: readonly MariadbServer[];
  /**
   * A server named `name` on `port` (a free one when not given), started from a copy of the
   * workspace's installed datadir with `args` after the defaults (`--no-defaults`, datadir, socket,
   * port, pid file, error log, loopback, utf8mb4, small buffers). With `start: false` it is only
   * prepared (Galera nodes start in order).
   */
  server(
    name: string,
    args?: readonly string[],
    options?: { port?: number; start?: boolean },
  ): Promise<MariadbServer>;
  stop(): Promise<void>;
}

/** Why throwaway MariaDB servers cannot run here, or `null`. */
export function mariadbUnavailable(): string | null {
  if (!existsSync(MARIADBD)) return `${MARIADBD} is not installed (Debian: apt-get install mariadb-server)`;
  if (!existsSync(INSTALL_DB)) return `${INSTALL_DB} is not installed`;
  if (process.getuid?.() === 0) {
    try {
      execFileSync('id', ['-u', 'mysql'], { stdio: 'ignore' });
    } catch {
      return 'running as root and there is no mysql user to run mariadbd as';
    }
  }
  return null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function owner(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  return {
    uid: Number(execFileSync('id', ['-u', 'mysql'], { encoding: 'utf8' })),
    gid: Number(execFileSync('id', ['-g', 'mysql'], { encoding: 'utf8' })),
  };
}

const live = new Set<MariadbWorkspace>();
const children = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of children) child.kill('SIGKILL');
    for (const workspace of live) rmSync(workspace.dir, { recursive: true, force: true });
  });
}

/** A temporary folder for throwaway MariaDB servers; pair it with `stop()` in `afterAll`. */
export function mariadbWorkspace(prefix = 'pagewise-mariadb-'): MariadbWorkspace {
  const reason = mariadbUnavailable();
  if (reason !== null) throw new Error(`cannot start MariaDB servers: ${reason}`);
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const ids = owner();
  if (ids) chownSync(dir, ids.uid, ids.gid);
  const servers: MariadbServer[] = [];

  let template: Promise<string> | undefined;
  const install = async () => {
    const data = join(dir, 'template');
    const user = ids ? ['--user=mysql'] : [];
    try {
      await run(
        INSTALL_DB,
        [
          '--no-defaults',
          `--datadir=${data}`,
          ...user,
          '--auth-root-authentication-method=normal',
          '--skip-test-db',
          '--innodb-log-file-size=16M',
        ],
        { timeout: 120_000 },
      );
    } catch (error) {
      const { stderr = '', stdout = '' } = error as { stderr?: string; stdout?: string };
      throw new Error(`mariadb-install-db failed: ${stderr || stdout || String(error)}`);
    }
    return data;
  };

  const workspace: MariadbWorkspace = {
    dir,
    servers,
    async server(name, args = [], options = {}) {
      const home = join(dir, name);
      mkdirSync(home);
      if (ids) chownSync(home, ids.uid, ids.gid);
      template ??= install();
      await run('cp', ['-a', await template, join(home, 'data')]);
      const port = options.port ?? (await freePort());
      const errorLog = join(home, 'error.log');
      const all = [
        '--no-defaults',
        ...(ids ? ['--user=mysql'] : []),
        `--datadir=${join(home, 'data')}`,
        `--socket=${join(home, 'mysqld.sock')}`,
        `--port=${port}`,
        '--bind-address=127.0.0.1',
        `--pid-file=${join(home, 'mysqld.pid')}`,
        `--log-error=${errorLog}`,
        '--character-set-server=utf8mb4',
        '--collation-server=utf8mb4_general_ci',
        '--skip-log-bin',
        '--performance-schema=OFF',
        '--innodb-log-file-size=16M',
        '--innodb-flush-log-at-trx-commit=2',
        '--max-connections=200',
        ...args,
      ];
      let child: ChildProcess | null = null;
      let exited: Promise<void> = Promise.resolve();
      const log = (lines = 12) => {
        try {
          return readFileSync(errorLog, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
        } catch {
          return '(no error log)';
        }
      };
      const server: MariadbServer = {
        name,
        port,
        dir: home,
        args: all,
        url: (database = 'test') => `mysql://root@127.0.0.1:${port}/${database}`,
        pid: () => child?.pid ?? null,
        log,
        async start(extra = []) {
          if (child !== null) throw new Error(`${name} is already running`);
          const started = spawn(MARIADBD, [...all, ...extra], { stdio: 'ignore' });
          child = started;
          children.add(started);
          let gone = false;
          exited = new Promise((resolve) =>
            started.once('exit', () => {
              gone = true;
              children.delete(started);
              if (child === started) child = null;
              resolve();
            }),
          );
          const deadline = Date.now() + 90_000;
          for (;;) {
            if (gone) throw new Error(`mariadbd ${name} exited while starting:\n${log()}`);
            try {
              const connection = await createConnection({
                host: '127.0.0.1',
                port,
                user: 'root',
                connectTimeout: 2_000,
              });
              await connection.end();
              return;
            } catch {
              if (Date.now() > deadline)
                throw new Error(`mariadbd ${name} did not answer on ${port} in 90 s:\n${log()}`);
              await sleep(100);
            }
          }
        },
        async kill() {
          if (child === null) return;
          child.kill('SIGKILL');
          await exited;
        },
        async stop() {
          if (child === null) return;
          child.kill('SIGTERM');
          const done = await Promise.race([exited.then(() => true), sleep(30_000).then(() => false)]);
          if (!done) await server.kill();
        },
      };
      servers.push(server);
      if (options.start !== false) await server.start();
      return server;
    },
    async stop() {
      await Promise.all(servers.map((server) => server.stop()));
      rmSync(dir, { recursive: true, force: true });
      live.delete(workspace);
    },
  };
  live.add(workspace);
  installExitHook();
  return workspace;
}

/** Runs `statement` on `url` with one short-lived connection (`multipleStatements`). */
export async function mariadbQuery<T = Record<string, unknown>>(
  url: string,
  statement: string,
): Promise<T[]> {
  const connection = await createConnection({ uri: url, multipleStatements: true, connectTimeout: 5_000 });
  try {
    const [rows] = await connection.query(statement);
    return rows as T[];
  } finally {
    await connection.end();
  }
}
