// `defaultVersion` as a function of the request in @pagewise/nest (issue 39), on both of Nest
// 12's platforms: the version an API key was created on when the request names none, a version
// the request names winning, a date between two versions of a bundle served by the earlier one,
// the scheme's errors as before. The interceptor awaits an async function; a guard, which runs
// before it, reads a synchronous one.
import {
  type CanActivate,
  Controller,
  type ExecutionContext,
  Get,
  type INestApplication,
  Module,
  UseGuards,
} from '@nestjs/common';
import { ApiVersion, getPageRequest, PagewiseModule, UseVersioning } from '@pagewise/nest';
import { type ApiRequest, HeaderVersioning, versionBundle } from '@pagewise/rest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { get } from './http-client.js';
import { PLATFORMS, start } from './platforms.js';

const BUNDLE = versionBundle({
  versions: [{ version: '2026-01-10' }, { version: '2025-11-15' }, { version: '2025-06-01' }],
});
const KEYS: Readonly<Record<string, string>> = { 'key-2025-08': '2025-08-20', 'key-2025-12': '2025-12-02' };
const keyVersion = (request: ApiRequest) => KEYS[request.headers.get('x-api-key') ?? ''] ?? null;

@Controller('async')
@UseVersioning(
  HeaderVersioning.withOptions({
    versionBundle: BUNDLE,
    defaultVersion: async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return keyVersion(request);
    },
  }),
)
class AsyncPinnedController {
  @Get()
  version(@ApiVersion() version: string | null) {
    return { version };
  }
}

/** Guards run before the interceptor: a synchronous function is asked right there. */
class SeenVersionGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return (
      getPageRequest(context)?.version !== '2025-06-01' ||
      getPageRequest(context)?.headers.has('x-allow') === true
    );
  }
}

@Controller('sync')
@UseVersioning(HeaderVersioning.withOptions({ versionBundle: BUNDLE, defaultVersion: keyVersion }))
@UseGuards(SeenVersionGuard)
class SyncPinnedController {
  @Get()
  version(@ApiVersion() version: string | null) {
    return { version };
  }
}

@Module({
  imports: [PagewiseModule.forRoot({})],
  controllers: [AsyncPinnedController, SyncPinnedController],
})
class PinnedModule {}

for (const platform of PLATFORMS) {
  describe(`Nest 12 on ${platform.name}: defaultVersion as a function`, () => {
    let app: INestApplication;
    let origin = '';

    beforeAll(async () => {
      [app, origin] = await start(PinnedModule, platform.adapter());
    });
    afterAll(async () => {
      await app?.close();
    });

    for (const path of ['async', 'sync']) {
      test(`${path}: the key's version when the request names none; a named version wins`, async () => {
        const version = async (headers: Record<string, string>) => {
          const answer = await get(`${origin}/${path}`, { ...headers, 'x-allow': '1' });
          expect(answer.status, JSON.stringify(answer.body)).toBe(200);
          return (answer.body as { version: string }).version;
        };
        expect(await version({ 'x-api-key': 'key-2025-08' })).toBe('2025-06-01');
        expect(await version({ 'x-api-key': 'key-2025-12' })).toBe('2025-11-15');
        expect(await version({ 'x-api-key': 'key-2025-08', 'api-version': '2026-01-10' })).toBe('2026-01-10');
        expect(await version({ 'api-version': '2025-12-25' })).toBe('2025-11-15');
        expect(await version({ 'x-api-key': 'unknown' })).toBe('2026-01-10');
        expect(await version({})).toBe('2026-01-10');
        const refused = await get(`${origin}/${path}`, {
          'x-api-key': 'key-2025-08',
          'api-version': '2024-01-01',
        });
        expect([refused.status, refused.body]).toEqual([
          404,
          { detail: 'Invalid version in "Api-Version" header.' },
        ]);
        expect(refused.headers.vary).toContain('Api-Version');
      });
    }

    test('a guard sees the pinned version before the handler runs', async () => {
      expect((await get(`${origin}/sync`, { 'x-api-key': 'key-2025-08' })).status).toBe(403);
      expect((await get(`${origin}/sync`, { 'x-api-key': 'key-2025-12' })).status).toBe(200);
    });
  });
}
