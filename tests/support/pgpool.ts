import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePorts } from './free-port.js';
import type { PgInstance } from './pg-instance.js';

/**
 * Throwaway pgpool-II (Debian's pgpool2 4.3) in streaming-replication mode in front of a primary
 * and its standbys: on free loopback ports, its sockets, pid file and logs in a temporary folder,
 * run in the foreground (`-n`) as the `postgres` user when root, as PgBouncer is. Clients and
 * pgpool's own checks authenticate with trust (loopback only).
 */

export const PGPOOL = '/usr/sbin/pgpool';

export interface Pgpool {
  readonly port: number;
  readonly dir: string;
  /** `postgres://postgres@127.0.0.1:<port>/<database>` through pgpool. */
  url(database?: string): string;
  /** `SHOW pool_nodes`: each backend's role and the SELECTs pgpool sent it. */
  nodes(): Promise<Array<{ id: number; role: string; status: string; selects: number }>>;
  log(lines?: number): string;
  stop(): Promise<void>;
}

/** Why pgpool cannot run here, or `null`. */
export function pgpoolUnavailable(): string | null {
  return existsSync(PGPOOL) ? null : `${PGPOOL} is not installed (Debian: apt-get install pgpool2)`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const children = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * Starts pgpool over `backends` (the primary first) with `settings` over the defaults
 * (statement-level load balancing, equal weights, no health checks, no failover).
 *
 * @example
 * const pool = await startPgpool([primary, standby], { app_name_redirect_preference_list: "'walk:primary'" });
 */
export async function startPgpool(
  backends: readonly PgInstance[],
  settings: Record<string, string | number> = {},
): Promise<Pgpool> {
  const reason = pgpoolUnavailable();
  if (reason !== null) throw new Error(`cannot start pgpool: ${reason}`);
  const dir = mkdtempSync(join(tmpdir(), 'pagewise-pgpool-'));
  const [port, pcpPort] = await freePorts(2);
  const options: Record<string, string | number> = {
    backend_clustering_mode: "'streaming_replication'",
    listen_addresses: "'127.0.0.1'",
    port: port!,
    socket_dir: `'${dir}'`,
    pcp_listen_addresses: "''",
    pcp_port: pcpPort!,
    pcp_socket_dir: `'${dir}'`,
    pid_file_name: `'${join(dir, 'pgpool.pid')}'`,
    logdir: `'${dir}'`,
    log_destination: "'stderr'",
    num_init_children: 16,
    max_pool: 2,
    enable_pool_hba: 'off',
    pool_passwd: "''",
    load_balance_mode: 'on',
    statement_level_load_balance: 'on',
    sr_check_period: 0,
    sr_check_user: "'postgres'",
    sr_check_password: "''",
    sr_check_database: "'postgres'",
    health_check_period: 0,
    failover_on_backend_error: 'off',
    use_watchdog: 'off',
    memory_cache_enabled: 'off',
    ...settings,
  };
  backends.forEach((backend, i) => {
    Object.assign(options, {
      [`backend_hostname${i}`]: "'127.0.0.1'",
      [`backend_port${i}`]: backend.port,
      [`backend_weight${i}`]: 1,
      [`backend_data_directory${i}`]: `'${backend.dataDir}'`,
      [`backend_flag${i}`]: "'DISALLOW_TO_FAILOVER'",
      [`backend_application_name${i}`]: `'${backend.name}'`,
    });
  });
  const config = join(dir, 'pgpool.conf');
  writeFileSync(
    config,
    `${Object.entries(options)
      .map(([k, v]) => `${k} = ${v}`)
      .join('\n')}\n`,
  );
  writeFileSync(join(dir, 'pcp.conf'), '');
  // As root, pgpool itself runs as postgres (spawned with its uid, not through runuser, so the
  // child is pgpool and stopping it stops pgpool, never only a wrapper).
  let user: { uid: number; gid: number } | undefined;
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    for (const file of [dir, config, join(dir, 'pcp.conf')]) chownSync(file, uid, gid);
    user = { uid, gid };
  }
  const logFile = join(dir, 'pgpool.log');
  writeFileSync(logFile, '');
  const child = spawn(PGPOOL, ['-n', '-f', config, '-F', join(dir, 'pcp.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so a last-resort SIGKILL reaches its workers too.
    detached: true,
    ...(user ?? {}),
  });
  const killGroup = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  children.add(child);
  const chunks: Buffer[] = [];
  child.stdout!.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr!.on('data', (chunk: Buffer) => chunks.push(chunk));
  let gone = false;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      gone = true;
      children.delete(child);
      resolve();
    }),
  );
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const c of children) {
        try {
          process.kill(-c.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    });
  }
  const log = (lines = 20) =>
    Buffer.concat(chunks).toString('utf8').trimEnd().split('\n').slice(-lines).join('\n');
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const pool: Pgpool = {
    port: port!,
    dir,
    url,
    log,
    async nodes() {
      const client = new pg.Client({ connectionString: url(), connectionTimeoutMillis: 5_000 });
      await client.connect();
      try {
        const { rows } = await client.query('show pool_nodes');
        return rows.map((r) => ({
          id: Number(r.node_id),
          role: String(r.role),
          status: String(r.status),
          selects: Number(r.select_cnt),
        }));
      } finally {
        await client.end();
      }
    },
    async stop() {
      if (!gone) {
        // Fast shutdown of pgpool's process group: SIGINT to the parent.
        child.kill('SIGINT');
        await Promise.race([exited, sleep(10_000)]);
        if (!gone) killGroup();
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (gone) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`pgpool exited while starting:\n${log()}`);
    }
    try {
      const nodes = await pool.nodes();
      if (
        nodes.length === backends.length &&
        nodes.every((n) => n.status === 'up') &&
        nodes[0]!.role === 'primary'
      ) {
        return pool;
      }
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await pool.stop();
      throw new Error(
        `pgpool did not come up with ${backends.length} backends in 30 s:\n${log()}\n${readLog(logFile)}`,
      );
    }
    await sleep(100);
  }
}

function readLog(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '';
  }
}
