// Absolute links are built only from a trusted origin (API.md "Better than DRF" 5), on every binding.
import { describe, expect, it } from 'vitest';
import { buildRoutes } from './app.js';
import { describeBindings, send, useServer } from './bindings.js';

const LIST = '/api/v2/articles/?page=2';

interface ListBody {
  next: string | null;
  previous: string | null;
  results: Array<{ url: string }>;
}

describeBindings('trusted hosts', (binding) => {
  describe('default allowedHosts (localhost, 127.0.0.1, [::1])', () => {
    const get = useServer(binding, { routes: buildRoutes() });

    it('an allowed Host is used for every link (body and Link header)', async () => {
      const { port } = get().server;
      const answer = await send(get().server, LIST, { headers: { host: `localhost:${port}` } });
      expect(answer.status).toBe(200);
      const body = answer.json() as ListBody;
      expect(body.next).toBe(`http://localhost:${port}/api/v2/articles/?page=3`);
      expect(body.results[0]!.url).toBe(`http://localhost:${port}/api/v2/articles/4/`);
      expect(answer.headers.get('link')).toContain(
        `<http://localhost:${port}/api/v2/articles/?page=3>; rel="next"`,
      );
      const ipv6 = await send(get().server, '/reverse/unversioned/', { headers: { host: `[::1]:${port}` } });
      expect(ipv6.json()).toEqual({ url: `http://[::1]:${port}/another/` });
    });

    it("an untrusted Host gets 400 with Django's message and no link", async () => {
      const answer = await send(get().server, LIST, { headers: { host: 'evil.com' } });
      expect(answer.status).toBe(400);
      expect(answer.json()).toEqual({
        detail: "Invalid HTTP_HOST header: 'evil.com'. You may need to add 'evil.com' to allowedHosts.",
      });
      expect(answer.headers.get('link')).toBeNull();
      const withPort = await send(get().server, LIST, { headers: { host: 'Evil.COM:8080' } });
      expect(withPort.json()).toEqual({
        detail: "Invalid HTTP_HOST header: 'Evil.COM:8080'. You may need to add 'evil.com' to allowedHosts.",
      });
    });

    it('a malformed Host gets the RFC 1034/1035 message', async () => {
      const answer = await send(get().server, LIST, { headers: { host: 'bad_host!' } });
      expect(answer.status).toBe(400);
      expect(answer.text).toContain('not valid according to RFC 1034/1035');
    });

    it('X-Forwarded-* are ignored without trustProxy', async () => {
      const answer = await send(get().server, LIST, {
        headers: { 'x-forwarded-host': 'evil.com', 'x-forwarded-proto': 'https' },
      });
      expect(answer.status).toBe(200);
      expect((answer.json() as ListBody).next).toBe(`${get().server.origin}/api/v2/articles/?page=3`);
    });
  });

  describe('trustProxy', () => {
    const get = useServer(binding, {
      routes: buildRoutes(),
      allowedHosts: ['127.0.0.1', '.example.org'],
      trustProxy: true,
    });

    it('X-Forwarded-Proto and X-Forwarded-Host (first values) build the links', async () => {
      const answer = await send(get().server, LIST, {
        headers: { 'x-forwarded-host': 'api.example.org, proxy.internal', 'x-forwarded-proto': 'https' },
      });
      expect(answer.status).toBe(200);
      const body = answer.json() as ListBody;
      expect(body.next).toBe('https://api.example.org/api/v2/articles/?page=3');
      expect(body.previous).toBe('https://api.example.org/api/v2/articles/');
      expect(answer.headers.get('link')).toBe(
        '<https://api.example.org/api/v2/articles/?page=3>; rel="next", <https://api.example.org/api/v2/articles/>; rel="prev"',
      );
    });

    it('a forwarded host must still be allowed', async () => {
      const answer = await send(get().server, LIST, { headers: { 'x-forwarded-host': 'evil.com' } });
      expect(answer.status).toBe(400);
      expect(answer.json()).toEqual({
        detail: "Invalid HTTP_HOST header: 'evil.com'. You may need to add 'evil.com' to allowedHosts.",
      });
    });

    it('an unknown forwarded scheme is ignored', async () => {
      const answer = await send(get().server, '/reverse/unversioned/', {
        headers: { 'x-forwarded-proto': 'gopher' },
      });
      expect(answer.json()).toEqual({ url: `${get().server.origin}/another/` });
    });
  });

  describe('publicOrigin', () => {
    const get = useServer(binding, { routes: buildRoutes(), publicOrigin: 'https://api.example.org' });

    it('links use the public origin whatever Host says', async () => {
      const answer = await send(get().server, LIST, { headers: { host: 'evil.com' } });
      expect(answer.status).toBe(200);
      const body = answer.json() as ListBody;
      expect(body.next).toBe('https://api.example.org/api/v2/articles/?page=3');
      expect(JSON.stringify(body)).not.toContain('evil.com');
    });
  });
});

// Issue 10: hosts and targets `new URL()` refuses were 500s, and an absolute-form target chose the
// scheme of the links.
describeBindings('unusable hosts, ports and targets', (binding) => {
  describe('default allowedHosts', () => {
    const get = useServer(binding, { routes: buildRoutes() });

    it.each([
      ['a port past 65535', { host: 'localhost:99999' }],
      ['a port of many digits', { host: `localhost:${'9'.repeat(40)}` }],
    ])('%s in Host is a 400', async (_case, headers) => {
      const answer = await send(get().server, LIST, { headers });
      expect(answer.status).toBe(400);
      expect(get().errors).toEqual([]);
    });

    it.each(['http://%zz/x/', 'http://[::1/x/', 'http://a%20b/x/'])(
      'an unparsable absolute-form target %s is a 400',
      async (target) => {
        const { port } = get().server;
        const answer = await send(get().server, target, { headers: { host: `localhost:${port}` } });
        // Express's own router cannot parse `[::1` (url.parse throws), matches no layer and
        // answers 404 before the middleware runs; every target that reaches a binding is a 400.
        const framework404 = binding.name === 'express' && target.includes('[');
        expect(answer.status).toBe(framework404 ? 404 : 400);
        expect(get().errors).toEqual([]);
      },
    );

    it('an absolute-form https target over plain HTTP does not make the links https', async () => {
      const { port } = get().server;
      const answer = await send(get().server, `https://localhost:${port}/reverse/unversioned/`, {
        headers: { host: `localhost:${port}` },
      });
      expect(answer.status).toBe(200);
      expect(answer.json()).toEqual({ url: `http://localhost:${port}/another/` });
    });
  });

  describe('trustProxy', () => {
    const get = useServer(binding, {
      routes: buildRoutes(),
      allowedHosts: ['127.0.0.1', 'localhost', '.example.org'],
      trustProxy: true,
    });

    it.each(['localhost:70000', 'api.example.org:65536', `127.0.0.1:${'1'.repeat(30)}`])(
      'X-Forwarded-Host %s is a 400',
      async (forwarded) => {
        const answer = await send(get().server, LIST, { headers: { 'x-forwarded-host': forwarded } });
        expect(answer.status).toBe(400);
        expect(get().errors).toEqual([]);
      },
    );

    it('X-Forwarded-Proto still sets the scheme of an absolute-form target', async () => {
      const { port } = get().server;
      const answer = await send(get().server, `http://localhost:${port}/reverse/unversioned/`, {
        headers: { host: `localhost:${port}`, 'x-forwarded-proto': 'https' },
      });
      expect(answer.json()).toEqual({ url: `https://localhost:${port}/another/` });
    });
  });
});
