// The Nest 11 CommonJS app's entry point, compiled by tsc outside the workspace (module nodenext
// in a package without "type": "module", so every import here is a require()) with copies of
// ../feed-app.ts and ../http-client.ts laid out as here. It serves the feed on the platform named
// by its argument, walks it over loopback HTTP and prints what it saw as JSON.
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import { FeedAppModule } from '../feed-app.js';
import { get } from '../http-client.js';

interface PageBody {
  readonly next: string | null;
  readonly previous: string | null;
  readonly results: Array<{ id: number; score: number }>;
}

async function create(platform: string) {
  if (platform === 'fastify') {
    const { FastifyAdapter } =
      require('@nestjs/platform-fastify') as typeof import('@nestjs/platform-fastify');
    return NestFactory.create(FeedAppModule, new FastifyAdapter(), { logger: false });
  }
  return NestFactory.create(FeedAppModule, { logger: false });
}

async function main(platform: string): Promise<void> {
  const app = await create(platform);
  await app.listen(0, '127.0.0.1');
  const origin = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  try {
    const ids: number[] = [];
    const scores: number[] = [];
    const links: Array<{ header: string | null; next: string | null; previous: string | null }> = [];
    let secondNext: string | null = null;
    for (let next: string | null = `${origin}/articles/feed`; next !== null; ) {
      const answer = await get(next);
      if (answer.status !== 200) throw new Error(`${next}: ${answer.status} ${JSON.stringify(answer.body)}`);
      const body = answer.body as PageBody;
      for (const row of body.results) {
        ids.push(row.id);
        scores.push(row.score);
      }
      links.push({
        header: (answer.headers.link as string | undefined) ?? null,
        next: body.next,
        previous: body.previous,
      });
      if (links.length === 1) secondNext = body.next;
      next = body.next;
    }
    const target = new URL(secondNext!);
    const cursor = target.searchParams.get('cursor')!;
    target.searchParams.set('cursor', cursor.slice(0, -1) + (cursor.endsWith('A') ? 'B' : 'A'));
    const tampered = await get(target.href);
    const refused = await get(`${origin}/media/feed/version`, { accept: 'application/json; version=3.0' });
    const untrusted = await get(`${origin}/articles/feed`, { host: 'evil.example' });
    const report = {
      moduleSystem: typeof module === 'object' && typeof require === 'function' ? 'commonjs' : 'esm',
      nest: (require('@nestjs/core/package.json') as { version: string }).version,
      // Every Pagewise file loaded: each package's CommonJS build, so one copy of core.
      pagewise: Object.keys(require.cache)
        .filter((file) => file.includes('@pagewise'))
        .map((file) => file.slice(file.lastIndexOf('@pagewise')).replaceAll('\\', '/')),
      platform,
      ids,
      scores,
      links,
      tampered: { status: tampered.status, body: tampered.body },
      refused: { status: refused.status, body: refused.body, vary: refused.headers.vary ?? null },
      untrusted: { status: untrusted.status, body: untrusted.body },
    };
    process.stdout.write(JSON.stringify(report));
  } finally {
    await app.close();
  }
}

main(process.argv[2] ?? 'express').catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
