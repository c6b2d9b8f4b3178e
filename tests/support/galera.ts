import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePorts } from './free-port.js';
import {
  MARIADBD,
  type MariadbServer,
  mariadbQuery,
  mariadbUnavailable,
  mariadbWorkspace,
} from './mariadb-instance.js';

/**
 * A MariaDB Galera cluster on loopback (Debian's `galera-4` beside MariaDB): `size` nodes, each
 * with every port explicit (client, group communication, IST, SST receive; the defaults 4567,
 * 4568 and 4444 would collide), rsync state transfers, the first node bootstrapping the cluster.
 * `kill()` is SIGKILL; `restart()` recovers the killed node's position (`--wsrep-recover`) and
 * starts it at that position, so it rejoins by incremental state transfer.
 */

const run = promisify(execFile);
export const GALERA_PROVIDER = '/usr/lib/galera/libgalera_smm.so';

export interface GaleraCluster {
  readonly nodes: readonly MariadbServer[];
  /** SIGKILL node `i`; waits until the other nodes see the cluster without it. */
  kill(i: number): Promise<void>;
  /** Restarts node `i` at its recovered position; waits until it is Synced in a full cluster. */
  restart(i: number): Promise<{ position: string; ms: number }>;
  /** `wsrep_cluster_size` and `wsrep_local_state_comment` of node `i`. */
  status(i: number): Promise<{ size: number; state: string }>;
  stop(): Promise<void>;
}

/** Why a Galera cluster cannot run here, or `null`. */
export function galeraUnavailable(): string | null {
  const mariadb = mariadbUnavailable();
  if (mariadb !== null) return mariadb;
  if (!existsSync(GALERA_PROVIDER)) return `${GALERA_PROVIDER} is missing (Debian: apt-get install galera-4)`;
  if (!existsSync('/usr/bin/rsync')) return 'rsync is missing (Debian: apt-get install rsync)';
  return null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function status(node: MariadbServer): Promise<{ size: number; state: string }> {
  const rows = await mariadbQuery<{ Variable_name: string; Value: string }>(
    node.url('mysql'),
    "show status where Variable_name in ('wsrep_cluster_size', 'wsrep_local_state_comment')",
  );
  const value = (name: string) => rows.find((r) => r.Variable_name === name)?.Value ?? '';
  return { size: Number(value('wsrep_cluster_size')), state: value('wsrep_local_state_comment') };
}

/** Waits until `node` is Synced in a cluster of `size`. */
async function synced(node: MariadbServer, size: number, timeout = 120_000): Promise<void> {
  const deadline = Date.now() + timeout;
  let last = { size: 0, state: '(no answer)' };
  for (;;) {
    try {
      last = await status(node);
      if (last.size === size && last.state === 'Synced') return;
    } catch {
      // Not answering yet.
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${node.name}: cluster size ${last.size}, ${last.state} after ${timeout} ms:\n${node.log()}`,
      );
    }
    await sleep(100);
  }
}

/**
 * Starts a `size`-node Galera cluster, node 0 bootstrapping it and each other joining by rsync
 * SST in turn. On a failed start nothing is left behind.
 *
 * @example
 * const cluster = await startGaleraCluster(3);
 * const node = cluster.nodes[1]!.url('test');
 */
export async function startGaleraCluster(size = 3): Promise<GaleraCluster> {
  const reason = galeraUnavailable();
  if (reason !== null) throw new Error(`cannot start a Galera cluster: ${reason}`);
  const workspace = mariadbWorkspace('pagewise-galera-');
  try {
    const ports = await freePorts(4 * size);
    const at = (i: number, k: number) => ports[4 * i + k]!;
    const gcomm = Array.from({ length: size }, (_, i) => `127.0.0.1:${at(i, 1)}`).join(',');
    const nodes: MariadbServer[] = [];
    for (let i = 0; i < size; i += 1) {
      const node = await workspace.server(
        `n${i}`,
        [
          '--binlog-format=ROW',
          '--default-storage-engine=InnoDB',
          '--innodb-autoinc-lock-mode=2',
          '--wsrep-on=ON',
          `--wsrep-provider=${GALERA_PROVIDER}`,
          `--wsrep-cluster-name=pagewise-${process.pid}`,
          `--wsrep-cluster-address=gcomm://${gcomm}`,
          '--wsrep-node-address=127.0.0.1',
          `--wsrep-node-name=n${i}`,
          `--wsrep-provider-options=gmcast.listen_addr=tcp://127.0.0.1:${at(i, 1)};ist.recv_addr=127.0.0.1:${at(i, 2)};gcache.size=64M`,
          `--wsrep-sst-receive-address=127.0.0.1:${at(i, 3)}`,
          '--wsrep-sst-method=rsync',
        ],
        { port: at(i, 0), start: false },
      );
      await node.start(i === 0 ? ['--wsrep-new-cluster'] : []);
      await synced(node, i + 1);
      nodes.push(node);
    }
    return {
      nodes,
      status: (i) => status(nodes[i]!),
      async kill(i) {
        await nodes[i]!.kill();
        // The survivors drop it from the component once its group-communication link times out.
        await Promise.all(nodes.filter((_, k) => k !== i).map((node) => synced(node, size - 1)));
      },
      async restart(i) {
        const node = nodes[i]!;
        const started = Date.now();
        // A SIGKILLed node's grastate says seqno -1: recover the position it reached from InnoDB.
        await run(MARIADBD, [...node.args, '--wsrep-recover'], { timeout: 60_000 }).catch(() => {});
        const recovered = /WSREP: Recovered position: ([0-9a-f-]+:-?\d+)/g;
        const text = readFileSync(join(node.dir, 'error.log'), 'utf8');
        const position = [...text.matchAll(recovered)].at(-1)?.[1];
        if (position === undefined) throw new Error(`${node.name}: no recovered position:\n${node.log()}`);
        await node.start([`--wsrep-start-position=${position}`]);
        await synced(node, size);
        return { position, ms: Date.now() - started };
      },
      stop: () => workspace.stop(),
    };
  } catch (error) {
    await workspace.stop();
    throw error;
  }
}
