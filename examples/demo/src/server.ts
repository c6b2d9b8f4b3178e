import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createHonoHandler } from '@pagewise/core';
import { Hono } from 'hono';
import { createDemoApp } from './app.js';
import { ensureSeeded, openDatabase } from './database.js';
import { parseVersioning } from './versioning.js';
import { mountDemoWebRoutes } from './web-routes.js';

const ARTICLES = Number(process.env.SEED_ARTICLES ?? 100_000);
const PORT = Number(process.env.PORT ?? 3000);
const HOST = process.env.HOST ?? '127.0.0.1';
const SQLITE_FILE = process.env.SQLITE_FILE ?? fileURLToPath(new URL('../data/demo.sqlite', import.meta.url));

async function main(): Promise<void> {
  const versioning = parseVersioning(process.env.VERSIONING);
  const database = await openDatabase(process.env.DATABASE_URL, SQLITE_FILE);
  if (await ensureSeeded(database, ARTICLES))
    console.error(`Seeded ${ARTICLES} articles into ${database.where}`);
  const app = await createDemoApp({
    db: database.db,
    versioning,
    cursorSecret: process.env.CURSOR_SECRET ?? null,
    maxOffset: process.env.MAX_OFFSET ? Number(process.env.MAX_OFFSET) : null,
    writeToken: process.env.DEMO_WRITE_TOKEN || null,
  });
  const hono = new Hono();
  mountDemoWebRoutes(hono, { db: database.db, versioning, cursorSecret: process.env.CURSOR_SECRET ?? null });
  hono.all(
    '*',
    createHonoHandler({
      routes: app.routes,
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
    console.log(
      `Pagewise demo on ${database.dialect} (${database.where}), ${versioning} versioning: ${base}${first}`,
    );
  });
  const stop = () => {
    server.close();
    void database.db.destroy().finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`pagewise demo: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
