// Issue 32, item 3: the Host header's case, as Django keeps it. HostNameVersioning reads the host
// as sent (DRF's test_host_name_versioning and test_invalid_host_name_versioning, with upper-case
// hosts: 'V2.example.org' is the version 'V2', not allowed among v1 and v2), absolute links are
// built from it (test_reverse_host_name_versioning; DRF 3.18 answered 'http://API.Example.com/...'
// for 'Host: API.Example.com', and kept an explicit ':80'), while allowedHosts matches without
// regard to case, as Django's ALLOWED_HOSTS does. On every binding.

import { createFetchHandler, Routes } from '@pagewise/rest';
import { describe, expect, it } from 'vitest';
import { buildRoutes } from './app.js';
import { describeBindings, send, useServer } from './bindings.js';

describeBindings('the Host header’s case', (binding) => {
  const get = useServer(binding, { routes: buildRoutes(), allowedHosts: ['127.0.0.1', '.example.org'] });
  const fetchJson = async (path: string, host: string) => {
    const answer = await send(get().server, path, { headers: { host } });
    return { status: answer.status, body: answer.json() as Record<string, unknown>, headers: answer.headers };
  };

  it('HostNameVersioning: V2.example.org is the version V2, refused when only v1 and v2 are allowed', async () => {
    expect(await fetchJson('/invalid/host/', 'V2.example.org')).toMatchObject({
      status: 404,
      body: { detail: 'Invalid version in hostname.' },
    });
    expect(await fetchJson('/invalid/host/', 'v2.example.org')).toMatchObject({
      status: 200,
      body: { version: 'v2' },
    });
    expect((await fetchJson('/version/host/', 'V1.example.org')).body).toEqual({ version: 'V1' });
    expect((await fetchJson('/version/host/', 'V1.Example.ORG:8000')).body).toEqual({ version: 'V1' });
  });

  it('reverse keeps the host as sent', async () => {
    expect((await fetchJson('/reverse/host/', 'V1.Example.org')).body).toEqual({
      url: 'http://V1.Example.org/another/',
    });
    expect((await fetchJson('/reverse/unversioned/?format=json', 'API.Example.org')).body).toEqual({
      url: 'http://API.Example.org/another/?format=json',
    });
  });

  it("pagination links and serializers' URLs keep it too, the Link header included", async () => {
    const answer = await fetchJson('/api/v2/articles/?page=2', 'API.Example.org');
    expect(answer.status).toBe(200);
    expect(answer.body.next).toBe('http://API.Example.org/api/v2/articles/?page=3');
    expect(answer.body.previous).toBe('http://API.Example.org/api/v2/articles/');
    expect((answer.body.results as Array<{ url: string }>)[0]!.url).toBe(
      'http://API.Example.org/api/v2/articles/4/',
    );
    expect(answer.headers.get('link')).toBe(
      '<http://API.Example.org/api/v2/articles/?page=3>; rel="next", <http://API.Example.org/api/v2/articles/>; rel="prev"',
    );
  });

  it('an explicit port stays as sent, as Django’s get_host() gives it', async () => {
    const answer = await fetchJson('/api/v2/articles/?page=2', 'API.EXAMPLE.ORG:80');
    expect(answer.body.next).toBe('http://API.EXAMPLE.ORG:80/api/v2/articles/?page=3');
  });
});

describe('allowedHosts matches without regard to case (Django’s validate_host)', () => {
  const routes = new Routes().add('/here/', 'here', (request) => ({
    host: request.host,
    url: request.buildAbsoluteUri(),
  }));
  const handle = createFetchHandler({ routes, allowedHosts: ['API.Example.org'] });

  it('an upper-case entry allows the lower-case host and the other way round; others are 400', async () => {
    for (const host of ['api.example.org', 'API.EXAMPLE.ORG', 'Api.Example.Org:8443']) {
      const answer = await handle(new Request('http://127.0.0.1/here/', { headers: { host } }));
      expect([host, answer.status, await answer.json()]).toEqual([
        host,
        200,
        { host, url: `http://${host}/here/` },
      ]);
    }
    const refused = await handle(
      new Request('http://127.0.0.1/here/', { headers: { host: 'evil.example.org' } }),
    );
    expect(refused.status).toBe(400);
  });
});
