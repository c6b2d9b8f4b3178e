/**
 * Where one HTTP endpoint's server time goes, under autocannon load: starts the same server
 * child as the HTTP comparison, warms the endpoint, profiles it (V8 sampling profiler in the
 * child) while autocannon drives only that endpoint, and prints self time per request by area
 * and by function.
 *
 *   pnpm build && pnpm --filter @pagewise/bench exec tsx src/http-profile.ts \
 *     --server minimal|demo [--sqlite FILE] [--side subject|bare|kysely] [--seconds 5] [--top 30] [--database URL]
 *
 * The database must already be seeded (run `src/http-cli.ts` once). The server runs the built
 * packages (`--conditions=@pagewise/source` before `src/http-profile.ts`: their sources).
 */
import autocannon from 'autocannon';
import { defaultSqliteFile } from './dialect-bench.js';
import { followPages, type HttpPaths, startServer, stopServer, withKysely } from './http-bench.js';
import { defaultDatabaseUrl } from './options.js';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const flags = new Map<string, string>();
const argv = process.argv.slice(2).filter((arg) => arg !== '--');
for (let i = 0; i < argv.length; i += 2) flags.set(argv[i]!, argv[i + 1] ?? '');
const server = flags.get('--server') ?? 'minimal';
const side = flags.get('--side') ?? 'subject';
const seconds = Number(flags.get('--seconds') ?? '5');
const top = Number(flags.get('--top') ?? '30');
const sqlite = flags.get('--sqlite') ?? null;
const databaseUrl = flags.get('--database') ?? defaultDatabaseUrl();
if (server !== 'minimal' && server !== 'demo') throw new Error('--server minimal|demo');
if (side !== 'subject' && side !== 'bare' && side !== 'kysely') throw new Error('--side subject|bare|kysely');
if (side === 'kysely' && server !== 'minimal') throw new Error('--side kysely: the minimal server only');

function area(url: string, functionName: string): string {
  if (functionName === '(garbage collector)') return 'gc';
  const pkg = /packages\/([^/]+)\/src\//.exec(url);
  if (pkg) return `pagewise ${pkg[1]}`;
  if (url.includes('/examples/demo/')) return 'demo app';
  const dep = /node_modules\/\.pnpm\/((?:@[^+/]+\+)?[^@/]+)/.exec(url);
  if (dep) return dep[1]!.replace('+', '/');
  if (url.includes('/bench/src/')) return 'bench server';
  return url.startsWith('node:') || url === '' ? 'node / native' : 'other';
}

let env: Record<string, string>;
if (server === 'minimal') {
  env = sqlite
    ? { BENCH_SQLITE_FILE: sqlite === 'default' ? defaultSqliteFile(100_000) : sqlite }
    : { BENCH_DATABASE_URL: databaseUrl, BENCH_POOL_SIZE: '4' };
  env.BENCH_TABLE = 'pagewise_bench_items';
} else if (sqlite) {
  env = { BENCH_DATABASE_URL: '', BENCH_SQLITE_FILE: sqlite };
} else {
  const url = new URL(databaseUrl);
  url.searchParams.set('options', '-c search_path=pagewise_demo');
  env = { BENCH_DATABASE_URL: url.toString() };
}
const { child, port } = await startServer(
  server === 'minimal' ? './http-server.ts' : './demo-http-server.ts',
  env,
);
try {
  const origin = `http://127.0.0.1:${port}`;
  const paths: HttpPaths =
    server === 'minimal'
      ? withKysely(
          await followPages(origin, '/pagewise/items', '/bare/items', (last) =>
            Buffer.from(
              JSON.stringify([sqlite ? last.created : new Date(last.created as string).getTime(), last.id]),
            ).toString('base64url'),
          ),
        )
      : await followPages(
          origin,
          '/v1/articles/feed/?page_size=50',
          '/bare/articles/feed/',
          (last) =>
            Buffer.from(JSON.stringify([new Date(last.created as string).getTime(), last.id])).toString(
              'base64url',
            ),
          'published_at',
        );
  const requests = paths[side]!.map((path) => ({ method: 'GET' as const, path }));
  await autocannon({ url: origin, connections: 10, duration: 2, requests });
  const answer = (key: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const listen = (message: Record<string, unknown>) => {
        if (key in message) {
          child.off('message', listen);
          resolve(message);
        }
      };
      child.on('message', listen);
    });
  const started = answer('profiling');
  child.send({ profile: 'start' });
  await started;
  const result = await autocannon({ url: origin, connections: 10, duration: seconds, requests });
  const stopped = answer('profile');
  child.send({ profile: 'stop' });
  const profile = (await stopped).profile as Profile;
  const n = result.requests.total;
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const byArea = new Map<string, number>();
  const byFn = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    const us = selfUs.get(node.id) ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    if (us === 0 || functionName === '(idle)') continue;
    busy += us;
    const where = area(url, functionName);
    byArea.set(where, (byArea.get(where) ?? 0) + us);
    const fn = `${functionName || '(anonymous)'} [${where}] ${url.split('/').at(-1)}:${lineNumber + 1}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + us);
  }
  const lines = [
    `${server}${sqlite ? ' (sqlite)' : ''} ${side}: ${n} requests in ${seconds} s (${(n / seconds).toFixed(0)} req/s, p99 ${result.latency.p99} ms), busy CPU ${(busy / n).toFixed(0)} us per request`,
    ...[...byArea]
      .sort((a, b) => b[1] - a[1])
      .map(([a, us]) => `  ${(us / n).toFixed(1).padStart(7)} us  ${a}`),
    '  --',
    ...[...byFn]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([f, us]) => `  ${(us / n).toFixed(1).padStart(7)} us  ${f}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await stopServer(child);
}
