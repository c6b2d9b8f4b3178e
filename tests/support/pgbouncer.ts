import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';

/**
 * Throwaway PgBouncer instances for tests of what runs behind a connection pooler: the installed
 * `pgbouncer` (Debian's package) on a free loopback port, in a temporary directory removed when the
 * test stops it or the process exits, in front of an existing Postgres. PgBouncer refuses to run as
 * root, so as root it runs as the `postgres` user (`runuser`), as the Postgres test instances do.
 *
 * Clients authenticate with `auth_type = trust` (loopback only); PgBouncer logs in to Postgres with
 * the user and password of the upstream URL.
 */

const run = promisify(execFile);

/** One running (or killed) PgBouncer. */
export interface PgBouncer {
  readonly port: number;
  readonly dir: string;
  /** `postgres://<user>@127.0.0.1:<port>/pagewise`: the upstream database, through PgBouncer. */
  readonly url: string;
  /** PgBouncer's process id while it runs. */
  pid(): number | null;
  /** SIGKILL, as a crash or an OOM kill would: every client and server connection is cut. */
  kill(): Promise<void>;
  /** Starts it again on the same port with the same configuration. */
  start(): Promise<void>;
  /** `kill()` then `start()`. */
  restart(): Promise<void>;
  /** Kills it and removes its directory; idempotent. */
  stop(): Promise<void>;
}

/** The `pgbouncer` binary, or why there is none. PATH first, then Debian's `/usr/sbin`. */
export function findPgBouncer(): string | { readonly reason: string } {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'];
  for (const dir of dirs) {
    if (dir !== '' && existsSync(join(dir, 'pgbouncer'))) return join(dir, 'pgbouncer');
  }
  return { reason: 'pgbouncer is not installed (Debian: apt-get install pgbouncer)' };
}

/** The prefix that runs a command as `postgres` when this process is root. */
function asUnprivileged(): readonly string[] {
  if (process.getuid?.() !== 0) return [];
  try {
    execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
  } catch {
    throw new Error('running as root and there is no postgres user to run pgbouncer as');
  }
  return ['runuser', '-u', 'postgres', '--'];
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Whether `pid` still runs. A killed daemon stays a zombie until init reaps it (in some containers
 * a second or more later), holding no socket any more: on Linux that counts as gone.
 */
function alive(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0];
    return state !== 'Z' && state !== 'X';
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT' && existsSync('/proc/self/stat')) return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A libpq connection-string value, quoted. */
const quoted = (value: string) => `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

const live = new Set<PgBouncer>();
let exitHookInstalled = false;

/**
 * Starts PgBouncer in front of the Postgres at `upstream`, its database exposed as `pagewise`.
 * `settings` go into the `[pgbouncer]` section over the defaults (`pool_mode = transaction`,
 * `default_pool_size = 4`). Always pair it with `stop()` in `afterAll`.
 *
 * @example
 * const bouncer = await startPgBouncer(process.env.PG_URL!, { pool_mode: 'transaction' });
 * const pool = new pg.Pool({ connectionString: bouncer.url, max: 8 });
 */
export async function startPgBouncer(
  upstream: string,
  settings: Record<string, string | number> = {},
): Promise<PgBouncer> {
  const binary = findPgBouncer();
  if (typeof binary !== 'string') throw new Error(`cannot start PgBouncer: ${binary.reason}`);
  const prefix = asUnprivileged();
  const target = new URL(upstream);
  const user = decodeURIComponent(target.username || 'postgres');
  const password = decodeURIComponent(target.password);
  const database = decodeURIComponent(target.pathname.slice(1) || user);
  const dir = mkdtempSync(join(tmpdir(), 'pagewise-pgbouncer-'));
  const config = join(dir, 'pgbouncer.ini');
  const pidfile = join(dir, 'pgbouncer.pid');
  const port = await freePort();
  const server = [
    `host=${quoted(target.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1')}`,
    `port=${target.port || 5432}`,
    `dbname=${quoted(database)}`,
    `user=${quoted(user)}`,
    ...(password ? [`password=${quoted(password)}`] : []),
  ].join(' ');
  const options: Record<string, string | number> = {
    listen_addr: '127.0.0.1',
    listen_port: port,
    unix_socket_dir: '',
    auth_type: 'trust',
    auth_file: join(dir, 'userlist.txt'),
    pool_mode: 'transaction',
    default_pool_size: 4,
    max_client_conn: 200,
    logfile: join(dir, 'pgbouncer.log'),
    pidfile,
    ...settings,
  };
  writeFileSync(
    config,
    `[databases]\npagewise = ${server}\n\n[pgbouncer]\n${Object.entries(options)
      .map(([key, value]) => `${key} = ${value}`)
      .join('\n')}\n`,
  );
  // With auth_type = trust, PgBouncer still only admits users listed in the auth file.
  writeFileSync(join(dir, 'userlist.txt'), `"${user.replaceAll('"', '""')}" ""\n`);
  if (prefix.length > 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    for (const file of [dir, config, join(dir, 'userlist.txt')]) chownSync(file, uid, gid);
  }

  let pid: number | null = null;
  let stopped = false;
  const log = () => {
    try {
      return readFileSync(join(dir, 'pgbouncer.log'), 'utf8').split('\n').slice(-8).join('\n');
    } catch {
      return '(no log)';
    }
  };

  const bouncer: PgBouncer = {
    port,
    dir,
    url: `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/pagewise`,
    pid: () => pid,
    async start() {
      if (pid !== null) throw new Error('PgBouncer is already running');
      const [command, ...args] = [...prefix, binary, '-d', config];
      try {
        await run(command!, args, { encoding: 'utf8', timeout: 30_000 });
      } catch (error) {
        const { stderr = '' } = error as { stderr?: string };
        throw new Error(`pgbouncer -d failed: ${stderr || String(error)}\n${log()}`);
      }
      // `-d` returns once it has forked; the pid file and the listening socket follow.
      const deadline = Date.now() + 10_000;
      for (;;) {
        const written = existsSync(pidfile) ? Number(readFileSync(pidfile, 'utf8').trim()) : NaN;
        if (Number.isInteger(written) && written > 0 && (await accepts(port))) {
          pid = written;
          return;
        }
        if (Date.now() > deadline) throw new Error(`PgBouncer did not listen on ${port} in 10 s\n${log()}`);
        await sleep(20);
      }
    },
    async kill() {
      if (pid === null) return;
      const killed = pid;
      pid = null;
      try {
        process.kill(killed, 'SIGKILL');
      } catch {
        // already gone
      }
      while (alive(killed)) await sleep(5);
      rmSync(pidfile, { force: true });
    },
    async restart() {
      await bouncer.kill();
      await bouncer.start();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await bouncer.kill();
      rmSync(dir, { recursive: true, force: true });
      live.delete(bouncer);
    },
  };
  live.add(bouncer);
  installExitHook();
  try {
    await bouncer.start();
  } catch (error) {
    await bouncer.stop();
    throw error;
  }
  return bouncer;
}

/** Last resort when a test process dies without its afterAll. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const bouncer of live) {
      const pid = bouncer.pid();
      if (pid !== null && alive(pid)) process.kill(pid, 'SIGKILL');
      rmSync(bouncer.dir, { recursive: true, force: true });
    }
  });
}
