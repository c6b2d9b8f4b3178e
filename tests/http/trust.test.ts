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
        detail: "Invalid HTTP_HOST header: 'evil.com'. You may need to add 'evil.com' to ALLOWED_HOSTS.",
      });
      expect(answer.headers.get('link')).toBeNull();
      const withPort = await send(get().server, LIST, { headers: { host: 'Evil.COM:8080' } });
      expect(withPort.json()).toEqual({
        detail: "Invalid HTTP_HOST header: 'Evil.COM:8080'. You may need to add 'evil.com' to ALLOWED_HOSTS.",
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
        detail: "Invalid HTTP_HOST header: 'evil.com'. You may need to add 'evil.com' to ALLOWED_HOSTS.",
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
