// packages/nest/README.md's ```ts blocks are code a reader pastes into a Nest app: compiled as the
// other pages are (tests/docs/markdown-blocks.ts: a block uses only names its page defines), with
// Nest's decorators (experimentalDecorators, no emitDecoratorMetadata). tests/docs compiles every
// other page without decorators; this one is left to this file.
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Controller, Get, type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { fromArray } from '@pagewise/memory-adapter';
import { PageUrl, PagewiseModule } from '@pagewise/nest';
import { cursorPage, DEFAULT_ALLOWED_HOSTS } from '@pagewise/rest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { blocksOf, compileBlocks, compilerOptions } from '../docs/markdown-blocks.js';
import { ARTICLES } from './feed-app.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FILE = 'packages/nest/README.md';

test('every ts block of packages/nest/README.md compiles, from its own page alone', () => {
  const blocks = blocksOf(FILE, readFileSync(join(ROOT, FILE), 'utf8'));
  expect(blocks.length).toBeGreaterThanOrEqual(5);
  const errors = compileBlocks(blocks, {
    ...compilerOptions,
    experimentalDecorators: true,
    exactOptionalPropertyTypes: true,
  });
  expect(blocks.flatMap((block) => errors.get(block)!)).toEqual([]);
}, 120_000);

// The README's feed module as written (issue 36 §4): its allowedHosts let local curl through (it
// answered 400 with only 'api.example.org'), and the https links it promises come with trustProxy.
describe("the README feed module's options", () => {
  const readme = readFileSync(join(ROOT, FILE), 'utf8');
  const feed = readme.slice(readme.indexOf('## A feed'), readme.indexOf('## What it does'));
  const written = /PagewiseModule\.forRoot\((\{[\s\S]*?\})\),\n\s*\],/.exec(feed)?.[1];
  // The options object as the README writes it, comments and all, with the one name it uses.
  const options = new Function('DEFAULT_ALLOWED_HOSTS', `return (${written});`)(
    DEFAULT_ALLOWED_HOSTS,
  ) as object;
  let app: INestApplication | undefined;
  let origin = '';

  beforeAll(async () => {
    @Controller('articles')
    class ArticlesController {
      @Get()
      list(@PageUrl() url: URL) {
        return cursorPage(fromArray(ARTICLES, { uniqueKey: 'id' }), url, { pageSize: 5, ordering: '-score' });
      }
    }
    @Module({ imports: [PagewiseModule.forRoot(options)], controllers: [ArticlesController] })
    class AppModule {}
    app = await NestFactory.create(AppModule, { logger: false });
    await app.listen(0, '127.0.0.1');
    origin = `http://localhost:${(app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(() => app?.close());

  test('local curl gets 200 and links on localhost', async () => {
    expect(written).toBeDefined();
    const answer = await fetch(`${origin}/articles`);
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { next: string }).next).toMatch(
      new RegExp(`^${origin}/articles\\?cursor=`),
    );
  });

  test('behind the proxy the links are https://api.example.org, as the README says', async () => {
    const answer = await fetch(`${origin}/articles`, {
      headers: { 'x-forwarded-host': 'api.example.org', 'x-forwarded-proto': 'https' },
    });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { next: string }).next).toMatch(
      /^https:\/\/api\.example\.org\/articles\?cursor=/,
    );
    expect(feed).toContain('trustProxy');
  });
});
