import cluster from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createHonoHandler } from '@pagewise/rest';
import { Hono } from 'hono';
import { createDemoApp } from './app.js';
import { ensureSeeded, openDatabase } from './database.js';
import { parseVersioning } from './versioning.js';
import { mountDemoWebRoutes } from './web-routes.js';

const ARTICLES = Number(process.env.SEED_ARTICLES ?? 100_000);
const PORT = Number(process.env.PORT ?? 3000);
const HOST = process.env.HOST ?? '127.0.0.1';
const SQLITE_FILE = process.env.SQLITE_FILE ?? fileURLToPath(new URL('../data/demo.sqlite', import.meta.url));

/** What a worker tells the primary once it listens. */
interface Listening {
  readonly listening: string;
}

/**
 * `WORKERS=N` (N from 1 to 64; unset: one plain process): a `node:cluster` primary seeds the
 * database once, then forks N workers that share the port (the primary hands connections out
 * round-robin). Nothing in Pagewise is
 * per-process: a cursor minted by one worker is followed on any other, provided they share
 * `CURSOR_SECRET` (forked workers inherit the environment). Each response says which process
 * served it in `X-Worker` (its pid).
 */
function parseWorkers(value: string | undefined): number | null {
  if (value === undefined || value === '') return null;
  const workers = Number(value);
  if (!Number.isInteger(workers) || workers < 1 || workers > 64)
    throw new Error(`WORKERS must be a whole number from 1 to 64 (got ${JSON.stringify(value)})`);
  return workers;
}

async function primary(workers: number): Promise<void> {
  parseVersioning(process.env.VERSIONING);
  const database = await openDatabase(process.env.DATABASE_URL, SQLITE_FILE);
  try {
    if (await ensureSeeded(database, ARTICLES))
      console.error(`Seeded ${ARTICLES} articles into ${database.where}`);
  } finally {
    await database.db.destroy();
  }
  let started = 0;
  let stopping = false;
  cluster.on('message', (_worker, message: Listening) => {
    started += 1;
    if (started === workers) console.log(`${message.listening} (${workers} workers)`);
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    // A worker that dies before every worker listens is a start-up error (it printed why);
    // later, a dead worker is replaced.
    if (started < workers) process.exit(code ?? 1);
    console.error(`pagewise demo: worker ${worker.process.pid} exited (${signal ?? code}), starting another`);
    cluster.fork();
  });
  for (let i = 0; i < workers; i += 1) cluster.fork();
  const stop = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function main(): Promise<void> {
  const versioning = parseVersioning(process.env.VERSIONING);
  const database = await openDatabase(process.env.DATABASE_URL, SQLITE_FILE, {
    orm: parseOrm(process.env.ORM),
  });
  if (cluster.isPrimary && (await ensureSeeded(database, ARTICLES)))
    console.error(`Seeded ${ARTICLES} articles into ${database.where}`);
  const app = await createDemoApp({
    db: database.db,
    drizzle: database.drizzle,
    versioning,
    cursorSecret: process.env.CURSOR_SECRET ?? null,
    maxOffset: process.env.MAX_OFFSET ? Number(process.env.MAX_OFFSET) : null,
    writeToken: process.env.DEMO_WRITE_TOKEN || null,
  });
  const hono = new Hono();
  if (cluster.isWorker) {
    const pid = String(process.pid);
    hono.use('*', async (c, next) => {
      await next();
      c.res.headers.set('X-Worker', pid);
    });
  }
  mountDemoWebRoutes(hono, { db: database.db, versioning, cursorSecret: process.env.CURSOR_SECRET ?? null });
  hono.all(
    '*',
    createHonoHandler({
      routes: app.routes,
      // The demo is all Pagewise: unknown paths get DRF's JSON 404, not Hono's text one.
      fallthrough: false,
      allowedHosts: [
        'localhost',
        '127.0.0.1',
        '[::1]',
        'v1.localhost',
        'v2.localhost',
        ...(process.env.ALLOWED_HOSTS?.split(',') ?? []),
      ],
    }),
  );
  const server = serve({ fetch: hono.fetch, port: PORT, hostname: HOST }, (info) => {
    const base = `http://localhost:${info.port}`;
    const first = versioning === 'path' || versioning === 'namespace' ? '/v1/articles/' : '/articles/';
    const listening = `Pagewise demo on ${database.dialect} (${database.where}), ${versioning} versioning: ${base}${first}`;
    if (cluster.isWorker) process.send!({ listening } satisfies Listening);
    else console.log(listening);
  });
  const stop = () => {
    server.close();
    void database.db.destroy().finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function start(): Promise<void> {
  const workers = cluster.isPrimary ? parseWorkers(process.env.WORKERS) : null;
  await (workers !== null ? primary(workers) : main());
}

start().catch((error: unknown) => {
  console.error(`pagewise demo: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

/** `ORM`: which ORM pages the articles, `kysely` (the default) or `drizzle`. */
function parseOrm(value: string | undefined): 'kysely' | 'drizzle' {
  if (value === undefined || value === '' || value === 'kysely') return 'kysely';
  if (value === 'drizzle') return 'drizzle';
  throw new Error(`ORM must be kysely or drizzle (got ${value})`);
}
