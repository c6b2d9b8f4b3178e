// The README's quick start, run as written (issue 36 §2): its two blocks are put together, on an
// in-memory database, and served by @hono/node-server on loopback. A request naming another host
// gets no link to it, and a tampered cursor is 404 Invalid cursor, as the README says.
import { writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, send, serveHono } from '../http/bindings.js';
import { blocksOf } from './markdown-blocks.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = join(ROOT, 'README.md');
const PUBLIC_ORIGIN = 'https://api.example.org';

/** The quick start's blocks that define the database, the options and the route. */
async function readmeApp(): Promise<{ app: Hono; db: Kysely<never>; file: string }> {
  const { readFileSync } = await import('node:fs');
  const blocks = blocksOf('README.md', readFileSync(README, 'utf8'));
  const setup = blocks.find((block) => block.code.includes('new Kysely<Database>'));
  const route = blocks.find((block) => block.code.includes("app.get('/articles/'"));
  if (setup === undefined || route === undefined) throw new Error('the README quick start moved');
  const code = `${setup.code.replace("'articles.db'", "':memory:'")}\n${route.code}\nexport { app, db };\n`;
  const file = join(ROOT, 'tests/docs', `.readme-route-${process.pid}.ts`);
  writeFileSync(file, code);
  const module = (await import(/* @vite-ignore */ file)) as { app: Hono; db: Kysely<never> };
  return { ...module, file };
}

describe('the README quick start, served', () => {
  let server: RunningServer;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    process.env.CURSOR_SECRET = 'readme-route-secret';
    process.env.PUBLIC_ORIGIN = PUBLIC_ORIGIN;
    const { app, db, file } = await readmeApp();
    const raw = db as unknown as Kysely<{
      articles: { id: number; title: string; published_at: string };
    }>;
    await raw.schema
      .createTable('articles')
      .addColumn('id', 'integer', (column) => column.primaryKey())
      .addColumn('title', 'text', (column) => column.notNull())
      .addColumn('published_at', 'text', (column) => column.notNull())
      .execute();
    await raw
      .insertInto('articles')
      .values(
        Array.from({ length: 7 }, (_, i) => ({
          id: i + 1,
          title: `Article ${i + 1}`,
          published_at: `2024-01-0${1 + (i % 3)}T00:00:00Z`,
        })),
      )
      .execute();
    server = await serveHono(app);
    cleanup = async () => {
      await server.close();
      await raw.destroy();
      await rm(file, { force: true });
    };
  });
  afterAll(async () => {
    await cleanup?.();
  });

  it('Host: evil.example does not appear in the links', async () => {
    const answer = await send(server, '/articles/?page_size=2', { headers: { host: 'evil.example' } });
    expect(answer.status).toBe(200);
    expect(answer.text).not.toContain('evil.example');
    expect(answer.headers.get('link') ?? '').not.toContain('evil.example');
    const body = answer.json() as { next: string };
    expect(body.next.startsWith(`${PUBLIC_ORIGIN}/articles/?`)).toBe(true);
  });

  it('a tampered cursor is 404 Invalid cursor; the untouched one walks on', async () => {
    const first = (await send(server, '/articles/?page_size=2')).json() as { next: string };
    const cursor = new URL(first.next).searchParams.get('cursor')!;
    const next = await send(server, `/articles/?page_size=2&cursor=${encodeURIComponent(cursor)}`);
    expect(next.status).toBe(200);
    // The position edited, the rest kept: the JSON payload before the signature's dot.
    const [payload, signature] = cursor.split('.');
    const edited = Buffer.from(payload!, 'base64url')
      .toString('utf8')
      .replace(/"p":\[/, '"p":[1,');
    for (const forged of [
      `${Buffer.from(edited).toString('base64url')}.${signature}`,
      Buffer.from(edited).toString('base64url'),
      `${payload}.${signature!.slice(0, -1)}${signature!.endsWith('A') ? 'B' : 'A'}`,
    ]) {
      const answer = await send(server, `/articles/?page_size=2&cursor=${encodeURIComponent(forged)}`);
      expect(answer.status, forged).toBe(404);
      expect(answer.json()).toEqual({ detail: 'Invalid cursor' });
    }
  });
});
