import { fileURLToPath } from 'node:url';

/** Everything one benchmark run is parameterised by. */
export interface BenchOptions {
  /** Postgres server to run on; the benchmark database is created on it when missing. */
  readonly databaseUrl: string;
  /** Rows in the seeded table. @default 1_000_000 */
  readonly rows: number;
  /** Name of the seeded table; its indexes are named after it. @default 'pagewise_bench_items' */
  readonly table: string;
  /** Rows per page. @default 50 */
  readonly pageSize: number;
  /** Depths (row offsets of the page's first row) before clamping to the table. */
  readonly depths: readonly number[];
  /** Most samples per contender and depth. @default 300 */
  readonly maxSamples: number;
  /** Fewest samples per contender and depth, even past the time budget. @default 10 */
  readonly minSamples: number;
  /** Time after which a contender stops sampling a depth (once it has `minSamples`). @default 3000 */
  readonly budgetMs: number;
  /** Untimed round-robin rounds before measuring each depth. @default 300 */
  readonly warmupRounds: number;
  /**
   * Deepest depth at which the scanning contenders (OFFSET pages, counts, kysely-paginate) run;
   * past it only the cursor contenders are measured (a 10M-row OFFSET page takes ~40 s).
   * @default Infinity
   */
  readonly slowMaxDepth: number;
  /** Connections of each `pg` pool. @default 2 */
  readonly poolSize: number;
  /** Duration of each HTTP run in seconds; 0 skips the HTTP comparison. @default 5 */
  readonly httpSeconds: number;
  /** HTTP rounds: each round runs the Pagewise endpoint then the bare one; req/s is the median round. @default 3 */
  readonly httpRounds: number;
  /** Concurrent autocannon connections. @default 10 */
  readonly httpConnections: number;
  /** Schema of the benchmark database holding the demo's tables. @default 'pagewise_demo' */
  readonly demoSchema: string;
  /** Articles the demo seeds for the HTTP comparison (its own default). @default 100_000 */
  readonly demoArticles: number;
  /** Time of each tinybench task in milliseconds. @default 1000 */
  readonly cpuTimeMs: number;
  /** Folder that receives RESULTS.md, the chart and results.json. @default the bench folder */
  readonly outDir: string;
  /** The command line quoted in RESULTS.md. */
  readonly command: string;
  /** Dialects measured beside Postgres (raw / hand-written Kysely / Pagewise tables). @default ['sqlite', 'mariadb'] */
  readonly dialects: ReadonlyArray<'sqlite' | 'mariadb'>;
  /** MariaDB server for its table; `null` skips it (said in the report). @default BENCH_MYSQL_URL, else MYSQL_URL */
  readonly mysqlUrl: string | null;
  /** SQLite database file (reused when it holds the same seed). @default <tmpdir>/pagewise-bench-<rows>.sqlite */
  readonly sqliteFile: string | null;
  /** Pages profiled (V8 sampling profiler) per dialect for the "why / plan" notes. @default 2000 */
  readonly profilePages: number;
  /** Progress output; `null` keeps the run silent. @default process.stderr */
  readonly log: NodeJS.WritableStream | null;
}

/** The bench package's folder: RESULTS.md lives there. */
export const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));

const DEFAULT_SERVER = 'postgres://postgres@127.0.0.1:5432/test';

/**
 * The benchmark database: `BENCH_DATABASE_URL` as given, otherwise `PG_URL`'s server with the
 * database `pagewise_bench`, so seeding a million rows never touches the test database.
 */
export function defaultDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  if (env.BENCH_DATABASE_URL) return env.BENCH_DATABASE_URL;
  const url = new URL(env.PG_URL || DEFAULT_SERVER);
  url.pathname = '/pagewise_bench';
  return url.toString();
}

/** The depths of the issue: the start, 10k, 100k, 500k, 900k (shown when the table has 1M rows) and the end. */
export const DEFAULT_DEPTHS: readonly number[] = [
  0,
  10_000,
  100_000,
  500_000,
  900_000,
  Number.POSITIVE_INFINITY,
];

/** Defaults for every option, with `overrides` applied. */
export function benchOptions(overrides: Partial<BenchOptions> = {}): BenchOptions {
  return {
    databaseUrl: defaultDatabaseUrl(),
    rows: 1_000_000,
    table: 'pagewise_bench_items',
    pageSize: 50,
    depths: DEFAULT_DEPTHS,
    maxSamples: 300,
    minSamples: 10,
    budgetMs: 3000,
    // Enough calls for V8 to optimize every contender's code before the first sample (a depth's
    // new code paths too): with 5, the first depth measured read JavaScript-heavy pages up to 30%
    // slower than the same depth measured again later. Bounded by a tenth of the budget.
    warmupRounds: 300,
    slowMaxDepth: Number.POSITIVE_INFINITY,
    poolSize: 2,
    httpSeconds: 5,
    httpRounds: 3,
    httpConnections: 10,
    demoSchema: 'pagewise_demo',
    demoArticles: 100_000,
    cpuTimeMs: 1000,
    dialects: ['sqlite', 'mariadb'],
    profilePages: 2000,
    mysqlUrl: process.env.BENCH_MYSQL_URL || process.env.MYSQL_URL || null,
    sqliteFile: null,
    outDir: BENCH_DIR,
    command: 'pnpm bench',
    log: process.stderr,
    ...overrides,
  };
}

/** The `--help` text. */
export const USAGE = `Usage: pnpm bench [-- options]
  --rows N            rows to seed (default 1000000; accepts 10_000_000, 1e7, 10m, 500k)
  --database URL      Postgres database (default BENCH_DATABASE_URL, else PG_URL's server, database pagewise_bench)
  --table NAME        seeded table (default pagewise_bench_items)
  --samples N         most samples per contender and depth (default 300)
  --min-samples N     fewest samples per contender and depth (default 10)
  --budget-ms N       time budget per contender and depth (default 3000)
  --warmup N          untimed round-robin rounds before each depth, at most budget/10 per contender (default 300)
  --slow-max-depth N  OFFSET, count and kysely-paginate contenders only up to this depth (default all)
  --http-seconds N    duration of each HTTP run, 0 skips HTTP (default 5)
  --dialects LIST     dialects beside Postgres: sqlite,mariadb (default both; "none" for Postgres only)
  --mysql URL         MariaDB/MySQL database for its table (default BENCH_MYSQL_URL, else MYSQL_URL)
  --sqlite-file PATH  SQLite file (default <tmpdir>/pagewise-bench-<rows>.sqlite, reused)
  --out DIR           where RESULTS.md, latency-vs-depth.svg and results.json go (default bench/)`;

/** Parses `5000`, `10_000_000`, `1e6`, `500k`, `10m`. */
function parseCount(flag: string, text: string | undefined): number {
  const match = /^(\d+(?:\.\d+)?(?:e\d+)?)([km]?)$/i.exec((text ?? '').replaceAll('_', '').trim());
  const scale = { '': 1, k: 1e3, m: 1e6 }[(match?.[2] ?? '').toLowerCase()] ?? 1;
  const value = match ? Number(match[1]) * scale : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 0)
    throw new Error(`${flag} needs a whole number, got "${text}"`);
  return value;
}

/**
 * The word after `--name` on a command line, `undefined` without the flag: the one-off scripts'
 * options (`run orm`, `run floor`, `run phases`).
 * @example
 * flagValue(['--', '--rows', '5000'], 'rows') // '5000'
 */
export function flagValue(argv: readonly string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i < 0 ? undefined : argv[i + 1];
}

/**
 * Options from a command line. A bare `--` is skipped: pnpm forwards it from
 * `pnpm bench -- --rows 10000000`.
 */
export function parseArgs(argv: readonly string[]): BenchOptions | 'help' {
  const overrides: { -readonly [K in keyof BenchOptions]?: BenchOptions[K] } = {};
  const args = argv.filter((arg) => arg !== '--');
  for (let i = 0; i < args.length; i += 1) {
    const [flag, inline] = args[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const value = () => inline ?? args[++i];
    switch (flag) {
      case '--help':
      case '-h':
        return 'help';
      case '--rows':
        overrides.rows = parseCount(flag, value());
        break;
      case '--database':
        overrides.databaseUrl = value() ?? '';
        break;
      case '--table':
        overrides.table = value() ?? '';
        break;
      case '--samples':
        overrides.maxSamples = parseCount(flag, value());
        break;
      case '--min-samples':
        overrides.minSamples = parseCount(flag, value());
        break;
      case '--warmup':
        overrides.warmupRounds = parseCount(flag, value());
        break;
      case '--slow-max-depth':
        overrides.slowMaxDepth = parseCount(flag, value());
        break;
      case '--budget-ms':
        overrides.budgetMs = parseCount(flag, value());
        break;
      case '--http-seconds':
        overrides.httpSeconds = parseCount(flag, value());
        break;
      case '--dialects': {
        const list = (value() ?? '').split(',').filter((d) => d !== '' && d !== 'none');
        for (const d of list)
          if (d !== 'sqlite' && d !== 'mariadb') throw new Error(`--dialects: unknown "${d}"`);
        overrides.dialects = list as Array<'sqlite' | 'mariadb'>;
        break;
      }
      case '--mysql':
        overrides.mysqlUrl = value() ?? null;
        break;
      case '--sqlite-file':
        overrides.sqliteFile = value() ?? null;
        break;
      case '--out':
        overrides.outDir = value() ?? '';
        break;
      default:
        throw new Error(`Unknown option ${flag}\n${USAGE}`);
    }
  }
  if (overrides.rows !== undefined && overrides.rows < 200) throw new Error('--rows must be at least 200');
  if (overrides.table !== undefined && !/^[a-z_][a-z0-9_]{0,40}$/.test(overrides.table)) {
    throw new Error('--table must be a lower-case SQL identifier');
  }
  const command = ['pnpm bench', ...(args.length > 0 ? ['--', ...args] : [])].join(' ');
  return benchOptions({ ...overrides, command });
}
