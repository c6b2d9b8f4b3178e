// The other ways to bind @pagewise/nest, on both of Nest 12's platforms: the interceptor and the
// filter bound per controller by class (Nest makes them, reading the explicit injection metadata
// the package carries: no emitDecoratorMetadata, no module, the bindings' default hosts), and
// PagewiseModule.forRootAsync behind a trusted proxy, with a guard that reads the page's request
// (and its version) before any interceptor runs.
import {
  type CanActivate,
  Controller,
  type ExecutionContext,
  Get,
  type INestApplication,
  Module,
  UseFilters,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { fromArray } from '@pagewise/memory-adapter';
import {
  getPageRequest,
  PageUrl,
  PagewiseExceptionFilter,
  PagewiseModule,
  PaginationInterceptor,
  UseVersioning,
} from '@pagewise/nest';
import { cursorPage, URLPathVersioning } from '@pagewise/rest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ARTICLES } from './feed-app.js';
import { get } from './http-client.js';
import { PLATFORMS, start } from './platforms.js';

@Controller('feed')
@UseInterceptors(PaginationInterceptor)
@UseFilters(PagewiseExceptionFilter)
class BoundFeedController {
  @Get()
  feed(@PageUrl() url: URL) {
    return cursorPage(fromArray(ARTICLES, { uniqueKey: 'id' }), url, { pageSize: 10, ordering: 'id' });
  }
}

@Module({ controllers: [BoundFeedController] })
class BoundByClassModule {}

@Controller('feed')
class ProxiedFeedController {
  @Get()
  feed(@PageUrl() url: URL) {
    return cursorPage(fromArray(ARTICLES, { uniqueKey: 'id' }), url, { pageSize: 10, ordering: 'id' });
  }
}

/** Guards run before interceptors: the request it reads is made, host-checked and versioned here. */
class RetiredClientsGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return getPageRequest(context)?.version !== 'v1';
  }
}

@Controller(':version/feed')
@UseVersioning(URLPathVersioning.withOptions({ allowedVersions: ['v1', 'v2'] }))
@UseGuards(RetiredClientsGuard)
class GuardedFeedController {
  @Get()
  feed(@PageUrl() url: URL) {
    return cursorPage(fromArray(ARTICLES, { uniqueKey: 'id' }), url, { pageSize: 10, ordering: 'id' });
  }
}

@Module({
  imports: [
    PagewiseModule.forRootAsync({
      useFactory: async () => ({ allowedHosts: ['api.example.org'], trustProxy: true }),
    }),
  ],
  controllers: [ProxiedFeedController, GuardedFeedController],
})
class ProxiedModule {}

for (const platform of PLATFORMS) {
  describe(`Nest 12 on ${platform.name}: other bindings`, () => {
    const apps: INestApplication[] = [];
    let bound = '';
    let proxied = '';

    beforeAll(async () => {
      const [boundApp, boundOrigin] = await start(BoundByClassModule, platform.adapter());
      const [proxiedApp, proxiedOrigin] = await start(ProxiedModule, platform.adapter());
      apps.push(boundApp, proxiedApp);
      bound = boundOrigin;
      proxied = proxiedOrigin;
    });
    afterAll(async () => {
      await Promise.all(apps.map((app) => app.close()));
    });

    test('@UseInterceptors/@UseFilters by class: pages with their Link header, DRF errors, local hosts only', async () => {
      const first = await get(`${bound}/feed`);
      const body = first.body as { next: string };
      expect(body.next).toMatch(new RegExp(`^${bound}/feed\\?cursor=`));
      expect(first.headers.link).toBe(`<${body.next}>; rel="next"`);
      const bad = await get(`${bound}/feed?cursor=nonsense`);
      expect(bad.status).toBe(404);
      expect(bad.body).toEqual({ detail: 'Invalid cursor' });
      const untrusted = await get(`${bound}/feed`, { host: 'api.example.org' });
      expect(untrusted.status).toBe(400);
      expect(untrusted.body).toEqual({
        detail:
          "Invalid HTTP_HOST header: 'api.example.org'. You may need to add 'api.example.org' to allowedHosts.",
      });
    });

    test('forRootAsync with trustProxy: links take the forwarded scheme and host once that host is allowed', async () => {
      const forwarded = await get(`${proxied}/feed`, {
        host: 'internal:8080',
        'x-forwarded-host': 'api.example.org',
        'x-forwarded-proto': 'https',
      });
      expect(forwarded.status).toBe(200);
      expect((forwarded.body as { next: string }).next).toMatch(
        /^https:\/\/api\.example\.org\/feed\?cursor=/,
      );
      const direct = await get(`${proxied}/feed`);
      expect(direct.status).toBe(400);
    });

    test("a guard reads the page's request before the interceptor: the module's hosts, the version", async () => {
      const proxy = { 'x-forwarded-host': 'api.example.org', 'x-forwarded-proto': 'https' };
      const allowed = await get(`${proxied}/v2/feed`, proxy);
      expect(allowed.status).toBe(200);
      expect((allowed.body as { next: string }).next).toMatch(
        /^https:\/\/api\.example\.org\/v2\/feed\?cursor=/,
      );
      expect((await get(`${proxied}/v1/feed`, proxy)).status).toBe(403);
      const unknown = await get(`${proxied}/v9/feed`, proxy);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ detail: 'Invalid version in URL path.' });
      const untrusted = await get(`${proxied}/v2/feed`);
      expect(untrusted.status).toBe(400);
    });
  });
}
