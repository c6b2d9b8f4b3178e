// Issue 36 §2: @pagewise/nest answered `new ApiResponse(text)` as raw text/html (a script came back
// as HTML) where every other binding sends a JSON string, and a page whose rows hold bigints
// (better-sqlite3's safeIntegers) with a 500 whose `Link` header was already set, where the others
// write "1". The same requests, on every binding and both of Nest's platforms, get the same answer.
import type { AddressInfo } from 'node:net';
import { Controller, Get, type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { fromKysely } from '@pagewise/kysely-adapter';
import { PageUrl, PagewiseModule } from '@pagewise/nest';
import { ApiResponse, cursorPage, Routes } from '@pagewise/rest';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINDINGS, FETCH_BINDING, type RunningServer } from '../http/bindings.js';

interface Item {
  id: bigint;
  name: string;
}
const raw = new Database(':memory:');
raw.defaultSafeIntegers(true);
raw.exec(`create table items (id integer primary key, name text not null);
  insert into items (id, name) values (1, 'one'), (2, 'two'), (3, 'three');`);
const db = new Kysely<{ items: Item }>({ dialect: new SqliteDialect({ database: raw }) });

const SCRIPT = '<script>alert(1)</script>';

/** The answers under test, as a handler of any binding returns them. */
const HANDLERS = {
  text: async () => new ApiResponse(SCRIPT),
  bigints: async (url: string | URL) => {
    const page = await cursorPage(fromKysely(db.selectFrom('items').selectAll(), { db }), url, {
      pageSize: 2,
      ordering: 'id',
    });
    return new ApiResponse(page.body(page.rows), { headers: page.headers });
  },
};

@Controller()
class AnswersController {
  @Get('text')
  text() {
    return HANDLERS.text();
  }

  @Get('bigints')
  bigints(@PageUrl() url: URL) {
    return HANDLERS.bigints(url);
  }
}

@Module({
  imports: [PagewiseModule.forRoot({ allowedHosts: ['127.0.0.1'] })],
  controllers: [AnswersController],
})
class AnswersModule {}

const routes = new Routes()
  .add('/text', 'text', () => HANDLERS.text())
  .add('/bigints', 'bigints', (request) => HANDLERS.bigints(request.url));

async function nest(adapter?: FastifyAdapter): Promise<RunningServer> {
  const app: INestApplication = adapter
    ? await NestFactory.create(AnswersModule, adapter, { logger: false })
    : await NestFactory.create(AnswersModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  const port = (app.getHttpServer().address() as AddressInfo).port;
  return { origin: `http://127.0.0.1:${port}`, port, close: () => app.close() };
}

const SERVERS: ReadonlyArray<{ name: string; start(): Promise<RunningServer> }> = [
  ...[...BINDINGS, FETCH_BINDING].map((binding) => ({
    name: binding.name,
    start: () => binding.start({ routes, allowedHosts: ['127.0.0.1'], onError: () => undefined }),
  })),
  { name: 'nest (express)', start: () => nest() },
  { name: 'nest (fastify)', start: () => nest(new FastifyAdapter()) },
];

/** What a client sees, the server's own origin written as ORIGIN. */
async function answer(server: RunningServer, path: string) {
  const response = await fetch(server.origin + path);
  const text = (await response.text()).replaceAll(server.origin, 'ORIGIN');
  return {
    status: response.status,
    type: (response.headers.get('content-type') ?? '').split(';')[0],
    link: response.headers.get('link')?.replaceAll(server.origin, 'ORIGIN') ?? null,
    body: text,
  };
}

describe('the same request, the same answer on every binding', () => {
  const running: Array<{ name: string; server: RunningServer }> = [];
  beforeAll(async () => {
    for (const { name, start } of SERVERS) running.push({ name, server: await start() });
  });
  afterAll(async () => {
    await Promise.all(running.map(({ server }) => server.close()));
    await db.destroy();
  });

  it('new ApiResponse(text) is a JSON string, never HTML', async () => {
    for (const { name, server } of running) {
      expect({ name, ...(await answer(server, '/text')) }).toEqual({
        name,
        status: 200,
        type: 'application/json',
        link: null,
        body: JSON.stringify(SCRIPT),
      });
    }
  });

  it('a page of bigint rows writes each bigint as a decimal string, with its Link header', async () => {
    const expected = await answer(running[0]!.server, '/bigints');
    expect(expected.status).toBe(200);
    expect(JSON.parse(expected.body).results).toEqual([
      { id: '1', name: 'one' },
      { id: '2', name: 'two' },
    ]);
    expect(expected.link).toMatch(/^<ORIGIN\/bigints\?cursor=[^>]+>; rel="next"$/);
    for (const { name, server } of running) {
      expect({ name, ...(await answer(server, '/bigints')) }).toEqual({ name, ...expected });
    }
  });
});
