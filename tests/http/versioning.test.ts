// DRF's tests/test_versioning.py (drf-behaviors.md 5.1-5.3, 5.5), through real HTTP on every binding.
import { describe, expect, it } from 'vitest';
import { buildRoutes } from './app.js';
import { describeBindings, send, useServer } from './bindings.js';

const ALLOWED_HOSTS = ['127.0.0.1', 'localhost', '.example.org'];

describeBindings('versioning', (binding) => {
  const get = useServer(binding, { routes: buildRoutes(), allowedHosts: ALLOWED_HOSTS });
  const fetchJson = async (path: string, headers: Record<string, string> = {}) => {
    const answer = await send(get().server, path, { headers });
    return { status: answer.status, body: answer.json(), headers: answer.headers };
  };

  describe('TestRequestVersion', () => {
    it('unversioned view: version null', async () => {
      expect(await fetchJson('/version/unversioned/?version=v1')).toMatchObject({
        status: 200,
        body: { version: null },
      });
    });

    it('query parameter: ?version=1.2.3, absent -> default (null), empty -> ""', async () => {
      expect((await fetchJson('/version/query/?version=1.2.3')).body).toEqual({ version: '1.2.3' });
      expect((await fetchJson('/version/query/')).body).toEqual({ version: null });
      expect((await fetchJson('/version/query/?version=')).body).toEqual({ version: '' });
      expect((await fetchJson('/version/query/?version=1&version=2')).body).toEqual({ version: '2' });
    });

    it('host name: first of three labels; other hosts -> default', async () => {
      expect((await fetchJson('/version/host/', { host: 'v1.example.org' })).body).toEqual({ version: 'v1' });
      expect((await fetchJson('/version/host/', { host: 'v1.example.org:8000' })).body).toEqual({
        version: 'v1',
      });
      expect((await fetchJson('/version/host/')).body).toEqual({ version: null });
      expect((await fetchJson('/version/host/', { host: 'v1.api.example.org' })).body).toEqual({
        version: null,
      });
      expect((await fetchJson('/version/host/', { host: 'my-v1.example.org' })).body).toEqual({
        version: null,
      });
    });

    it('accept header: version parameter of the media type, wildcards included', async () => {
      const accept = (value: string) => fetchJson('/version/accept/', { accept: value });
      expect((await accept('application/json; version=1.2.3')).body).toEqual({ version: '1.2.3' });
      expect((await accept('*/*; version=1.2.3')).body).toEqual({ version: '1.2.3' });
      expect((await accept('application/json')).body).toEqual({ version: null });
    });

    it('URL path: the version keyword of the route, else the default', async () => {
      expect((await fetchJson('/version/url-path/1.2.3/')).body).toEqual({ version: '1.2.3' });
      expect((await fetchJson('/version/url-path/')).body).toEqual({ version: null });
    });

    it('namespace: the namespace of the matched route, else the default', async () => {
      expect((await fetchJson('/v1/version/namespace/')).body).toEqual({ version: 'v1' });
      expect((await fetchJson('/v2/version/namespace/')).body).toEqual({ version: 'v2' });
      expect((await fetchJson('/version/namespace/')).body).toEqual({ version: null });
    });

    it('nested namespaces: the first allowed component', async () => {
      expect((await fetchJson('/v1/nested/version/')).body).toEqual({ version: 'v1' });
      expect((await fetchJson('/v1/nested/version/allowed/')).body).toEqual({ version: 'nested-namespace' });
    });

    it('a custom X-API-Version scheme falls back to its default and varies on the header', async () => {
      const fallback = await fetchJson('/version/custom-header/');
      expect(fallback.body).toEqual({ version: 'v1' });
      expect(fallback.headers.get('vary')).toBe('Accept, X-API-Version');
      expect((await fetchJson('/version/custom-header/', { 'x-api-version': 'v7' })).body).toEqual({
        version: 'v7',
      });
    });
  });

  describe('TestInvalidVersion (allowed: v1, v2) and DRF messages', () => {
    it('query parameter -> 404', async () => {
      expect(await fetchJson('/invalid/query/?version=v3')).toMatchObject({
        status: 404,
        body: { detail: 'Invalid version in query parameter.' },
      });
      expect((await fetchJson('/invalid/query/?version=v2')).body).toEqual({ version: 'v2' });
    });

    it('host name -> 404', async () => {
      expect(await fetchJson('/invalid/host/', { host: 'v3.example.org' })).toMatchObject({
        status: 404,
        body: { detail: 'Invalid version in hostname.' },
      });
    });

    it('accept header -> 406 with Vary: Accept', async () => {
      const answer = await fetchJson('/invalid/accept/', { accept: 'application/json; version=v3' });
      expect(answer).toMatchObject({ status: 406, body: { detail: 'Invalid version in "Accept" header.' } });
      expect(answer.headers.get('vary')).toBe('Accept');
    });

    it('URL path -> 404', async () => {
      expect(await fetchJson('/invalid/url-path/v3/')).toMatchObject({
        status: 404,
        body: { detail: 'Invalid version in URL path.' },
      });
    });

    it('namespace -> 404', async () => {
      expect(await fetchJson('/v3/invalid/namespace/')).toMatchObject({
        status: 404,
        body: { detail: 'Invalid version in URL path. Does not match any version namespace.' },
      });
    });
  });

  describe('TestAllowedAndDefaultVersion (Accept header)', () => {
    it('missing version without default -> 406', async () => {
      expect((await fetchJson('/allowed/accept/', { accept: 'application/json' })).status).toBe(406);
    });

    it('missing version with default v2 -> v2', async () => {
      expect(await fetchJson('/allowed-default/accept/', { accept: 'application/json' })).toMatchObject({
        status: 200,
        body: { version: 'v2' },
      });
    });

    it('explicit allowed version with default -> 200', async () => {
      expect(
        await fetchJson('/allowed-default/accept/', { accept: 'application/json; version=v2' }),
      ).toMatchObject({
        status: 200,
        body: { version: 'v2' },
      });
    });

    it('missing version, None allowed -> null', async () => {
      expect(await fetchJson('/allowed-none/accept/', { accept: 'application/json' })).toMatchObject({
        status: 200,
        body: { version: null },
      });
    });

    it('missing version, None allowed, default v2 -> v2', async () => {
      expect(await fetchJson('/allowed-none-default/accept/', { accept: 'application/json' })).toMatchObject({
        status: 200,
        body: { version: 'v2' },
      });
    });
  });

  describe('hyperlinks keep the client version (5.5)', () => {
    it('namespaced items link into their own namespace; non-API routes fall back', async () => {
      const { origin } = get().server;
      const v1 = (await fetchJson('/v1/articles/')).body as Array<{
        id: number;
        url: string;
        elsewhere: string;
      }>;
      expect(v1[2]).toEqual({ id: 3, url: `${origin}/v1/namespaced/3/`, elsewhere: `${origin}/non-api/3/` });
      const v2 = (await fetchJson('/v2/articles/')).body as Array<{
        id: number;
        url: string;
        elsewhere: string;
      }>;
      expect(v2[4]).toEqual({ id: 5, url: `${origin}/v2/namespaced/5/`, elsewhere: `${origin}/non-api/5/` });
    });

    it('URL-path versioned list: every item url carries the requested version', async () => {
      const { origin } = get().server;
      const body = (await fetchJson('/api/v2/articles/')).body as { results: Array<{ url: string }> };
      expect(body.results.map((item) => item.url)).toEqual([
        `${origin}/api/v2/articles/1/`,
        `${origin}/api/v2/articles/2/`,
        `${origin}/api/v2/articles/3/`,
      ]);
      const detail = await fetchJson('/api/v1/articles/2/');
      expect(detail.body).toEqual({ id: 2, title: 'Apple', url: `${origin}/api/v1/articles/2/` });
    });
  });
});
