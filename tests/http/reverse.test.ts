// DRF's TestURLReversing and tests/test_reverse.py (drf-behaviors.md 5.4), through real HTTP.
import { describe, expect, it } from 'vitest';
import { buildRoutes } from './app.js';
import { describeBindings, send, useServer } from './bindings.js';

describeBindings('reverse', (binding) => {
  const get = useServer(binding, { routes: buildRoutes(), allowedHosts: ['127.0.0.1', '.example.org'] });
  const url = async (path: string, headers: Record<string, string> = {}) => {
    const answer = await send(get().server, path, { headers });
    expect(answer.status).toBe(200);
    return (answer.json() as { url: string }).url;
  };

  describe('TestURLReversing', () => {
    it('unversioned: absolute URL of the plain route', async () => {
      expect(await url('/reverse/unversioned/')).toBe(`${get().server.origin}/another/`);
    });

    it('query parameter: ?version= added when the request has one', async () => {
      expect(await url('/reverse/query/?version=v1')).toBe(`${get().server.origin}/another/?version=v1`);
      expect(await url('/reverse/query/')).toBe(`${get().server.origin}/another/`);
    });

    it('host name: the request host is kept', async () => {
      expect(await url('/reverse/host/', { host: 'v1.example.org' })).toBe('http://v1.example.org/another/');
      expect(await url('/reverse/host/')).toBe(`${get().server.origin}/another/`);
    });

    it('URL path: the version keyword is injected', async () => {
      expect(await url('/reverse/url-path/v1/')).toBe(`${get().server.origin}/v1/another/`);
      expect(await url('/reverse/url-path/')).toBe(`${get().server.origin}/another/`);
    });

    it('URL path: a version the versioned pattern refuses falls back to the unversioned route', async () => {
      expect(await url('/reverse/url-path/v3/')).toBe(`${get().server.origin}/another/`);
    });

    it('namespace: the name is looked up in the version namespace', async () => {
      expect(await url('/v1/reverse/namespace/')).toBe(`${get().server.origin}/v1/namespaced/`);
      expect(await url('/reverse/namespace/')).toBe(`${get().server.origin}/another/`);
    });
  });

  describe('format', () => {
    it('the request ?format= is carried over (URL_FORMAT_OVERRIDE)', async () => {
      expect(await url('/reverse/unversioned/?format=json')).toBe(
        `${get().server.origin}/another/?format=json`,
      );
      expect(await url('/reverse/query/?version=v2&format=json')).toBe(
        `${get().server.origin}/another/?format=json&version=v2`,
      );
    });

    it('format= picks the route with a format keyword', async () => {
      const answer = await send(get().server, '/reverse/format/');
      expect(answer.json()).toEqual({
        plain: `${get().server.origin}/another/`,
        suffixed: `${get().server.origin}/another.json/`,
      });
    });
  });
});
