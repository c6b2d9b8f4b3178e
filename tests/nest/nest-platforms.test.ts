// A real Nest 12 app (ESM) with @pagewise/nest, served over loopback HTTP on Nest's Express
// platform and on its Fastify platform: every case is written once and runs on both.
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ARTICLES, ArticlesController, FeedAppModule } from './feed-app.js';
import { type Answer, get } from './http-client.js';

interface Platform {
  readonly name: string;
  create(): Promise<INestApplication>;
}

const PLATFORMS: readonly Platform[] = [
  { name: 'express', create: () => NestFactory.create(FeedAppModule, { logger: false }) },
  {
    name: 'fastify',
    create: () => NestFactory.create(FeedAppModule, new FastifyAdapter(), { logger: false }),
  },
];

interface PageBody {
  readonly count?: number;
  readonly next: string | null;
  readonly previous: string | null;
  readonly results: Array<{ id: number; title: string; score?: number }>;
}

/** The `Link` header a page with these links carries (RFC 8288, as the engine writes it). */
function linkOf(body: PageBody): string | undefined {
  const parts = [
    ...(body.next ? [`<${body.next}>; rel="next"`] : []),
    ...(body.previous ? [`<${body.previous}>; rel="prev"`] : []),
  ];
  return parts.length > 0 ? parts.join(', ') : undefined;
}

/** Follows `next` from `url` to the end: each page's answer, checked for its `Link` header. */
async function walk(url: string, headers: Record<string, string> = {}): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let next: string | null = url; next !== null; ) {
    const answer = await get(next, headers);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const body = answer.body as PageBody;
    expect(answer.headers.link).toBe(linkOf(body));
    answers.push(answer);
    next = body.next;
    if (answers.length > 50) throw new Error('the walk does not end');
  }
  return answers;
}

/** The URL with its cursor changed by one character. */
function tampered(url: string): string {
  const target = new URL(url);
  const cursor = target.searchParams.get('cursor')!;
  const last = cursor.at(-1) === 'A' ? 'B' : 'A';
  target.searchParams.set('cursor', cursor.slice(0, -1) + last);
  return target.href;
}

test('the app is compiled without emitDecoratorMetadata, which @pagewise/nest does not need', () => {
  expect(Reflect.getMetadata('design:paramtypes', ArticlesController.prototype, 'feed')).toBeUndefined();
  expect(Reflect.getMetadata('design:paramtypes', ArticlesController)).toBeUndefined();
});

for (const platform of PLATFORMS) {
  describe(`Nest 12 (ESM) on its ${platform.name} platform`, () => {
    let app: INestApplication;
    let origin = '';

    beforeAll(async () => {
      app = await platform.create();
      await app.listen(0, '127.0.0.1');
      origin = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await app?.close();
    });

    test('a cursor feed walked page by page: every row once, in order, with its Link header', async () => {
      const answers = await walk(`${origin}/articles/feed`);
      expect(answers).toHaveLength(4);
      const rows = answers.flatMap((answer) => (answer.body as PageBody).results);
      expect(rows.map((row) => row.id).sort((a, b) => a - b)).toEqual(ARTICLES.map((article) => article.id));
      const scores = rows.map((row) => row.score!);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      const first = answers[0]!.body as PageBody;
      expect(Object.keys(first)).toEqual(['next', 'previous', 'results']);
      expect(first.previous).toBeNull();
      expect(first.next).toMatch(new RegExp(`^${origin}/articles/feed\\?cursor=`));
      expect((answers[3]!.body as PageBody).next).toBeNull();
      // previous of next is the same page
      const second = answers[1]!.body as PageBody;
      const back = await get(second.previous!);
      expect((back.body as PageBody).results).toEqual(first.results);
    });

    test('a tampered cursor is 404 {"detail": "Invalid cursor"}', async () => {
      const first = (await get(`${origin}/articles/feed`)).body as PageBody;
      const answer = await get(tampered(first.next!));
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ detail: 'Invalid cursor' });
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
    });

    test('serialized rows keep the page body and its Link header', async () => {
      const answers = await walk(`${origin}/articles/titles`);
      expect(answers).toHaveLength(3);
      const rows = answers.flatMap((answer) => (answer.body as PageBody).results);
      expect(rows).toEqual(
        [...ARTICLES]
          .sort((a, b) => a.title.localeCompare(b.title))
          .map((article) => ({ id: article.id, title: article.title })),
      );
    });

    test("a page-number list of DRF's paginator, and 404 for a page past the end", async () => {
      const answers = await walk(`${origin}/articles/list`);
      expect(answers.map((answer) => (answer.body as PageBody).results.length)).toEqual([10, 10, 5]);
      const first = answers[0]!.body as PageBody;
      expect(Object.keys(first)).toEqual(['count', 'next', 'previous', 'results']);
      expect(first).toMatchObject({ count: 25, next: `${origin}/articles/list?page=2`, previous: null });
      expect((answers[2]!.body as PageBody).previous).toBe(`${origin}/articles/list?page=2`);
      const past = await get(`${origin}/articles/list?page=9`);
      expect(past.status).toBe(404);
      expect(past.body).toEqual({ detail: 'Invalid page.' });
    });

    test('an ApiResponse is answered with its own status and headers', async () => {
      const answer = await get(`${origin}/articles/queued`);
      expect(answer.status).toBe(202);
      expect(answer.headers['retry-after']).toBe('5');
      expect(answer.body).toEqual({ queued: true });
    });

    test('URL-path versioning: 200 for an allowed version, 404 for another, 410 past its sunset', async () => {
      expect((await get(`${origin}/v2/articles/version`)).body).toEqual({ version: 'v2' });
      const unknown = await get(`${origin}/v3/articles/version`);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ detail: 'Invalid version in URL path.' });
      const retired = await get(`${origin}/v0/articles/version`);
      expect(retired.status).toBe(410);
      expect(retired.body).toEqual({ detail: 'API version "v0" was retired on 2021-01-01.' });
      // A deprecated version's page: the page's links first, then the deprecation link, in one header.
      const deprecated = await get(`${origin}/v1/articles`);
      expect(deprecated.status).toBe(200);
      const body = deprecated.body as PageBody;
      expect(body.next).toMatch(new RegExp(`^${origin}/v1/articles\\?cursor=`));
      expect(deprecated.headers.deprecation).toBe('@1704067200');
      expect(deprecated.headers.link).toBe(
        `<${body.next}>; rel="next", <https://example.org/deprecations/v1>; rel="deprecation"`,
      );
      const walked = await walk(`${origin}/v2/articles`);
      expect(walked.flatMap((answer) => (answer.body as PageBody).results)).toHaveLength(25);
    });

    test('Accept-header versioning: the version, its default, 406 for another, Vary: Accept on each', async () => {
      const fallback = await get(`${origin}/media/feed/version`);
      expect(fallback.body).toEqual({ version: '1.0' });
      expect(fallback.headers.vary).toBe('Accept');
      const chosen = await get(`${origin}/media/feed/version`, {
        accept: 'application/json; version=2.0',
      });
      expect(chosen.body).toEqual({ version: '2.0' });
      expect(chosen.headers.vary).toBe('Accept');
      const refused = await get(`${origin}/media/feed/version`, {
        accept: 'application/json; version=3.0',
      });
      expect(refused.status).toBe(406);
      expect(refused.body).toEqual({ detail: 'Invalid version in "Accept" header.' });
      expect(refused.headers.vary).toBe('Accept');
      // The feed under the scheme: pages and their errors vary on Accept.
      const accept = { accept: 'application/json; version=2.0' };
      const pages = await walk(`${origin}/media/feed`, accept);
      expect(pages.every((page) => page.headers.vary === 'Accept')).toBe(true);
      const bad = await get(tampered((pages[0]!.body as PageBody).next!), accept);
      expect(bad.status).toBe(404);
      expect(bad.body).toEqual({ detail: 'Invalid cursor' });
      expect(bad.headers.vary).toBe('Accept');
    });

    test("namespace versioning reads @ApiNamespace(); the module's query-parameter scheme covers the rest", async () => {
      expect((await get(`${origin}/ns/v1/articles/version`)).body).toEqual({ version: 'v1' });
      const foreign = await get(`${origin}/ns/v9/articles/version`);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({
        detail: 'Invalid version in URL path. Does not match any version namespace.',
      });
      expect((await get(`${origin}/articles/version`)).body).toEqual({ version: '1' });
      expect((await get(`${origin}/articles/version?version=2`)).body).toEqual({ version: '2' });
      const refused = await get(`${origin}/articles/version?version=3`);
      expect(refused.status).toBe(404);
      expect(refused.body).toEqual({ detail: 'Invalid version in query parameter.' });
    });

    test('links follow a trusted Host; an untrusted one is 400 on Pagewise routes only', async () => {
      const port = new URL(origin).port;
      const local = await get(`${origin}/articles/list`, { host: `localhost:${port}` });
      expect((local.body as PageBody).next).toBe(`http://localhost:${port}/articles/list?page=2`);
      const evil = await get(`${origin}/articles/feed`, { host: 'evil.example' });
      expect(evil.status).toBe(400);
      expect(evil.body).toEqual({
        detail:
          "Invalid HTTP_HOST header: 'evil.example'. You may need to add 'evil.example' to allowedHosts.",
      });
      // X-Forwarded-Host counts only with trustProxy, which this app leaves off.
      const forwarded = await get(`${origin}/articles/list`, { 'x-forwarded-host': 'evil.example' });
      expect((forwarded.body as PageBody).next).toBe(`${origin}/articles/list?page=2`);
      // A route that is not Pagewise's builds no request: Nest answers it whatever the Host.
      const health = await get(`${origin}/articles/health`, { host: 'evil.example' });
      expect(health.status).toBe(200);
      expect(health.body).toEqual({ ok: true });
    });
  });
}
