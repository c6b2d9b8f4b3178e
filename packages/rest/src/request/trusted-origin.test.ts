import { describe, expect, it } from 'vitest';
import { ApiRequest } from './api-request.js';
import { DisallowedHost, isAllowedHost, splitDomainPort, trustedOrigin } from './trusted-origin.js';

describe('splitDomainPort / isAllowedHost (Django)', () => {
  it('splits and lower-cases, dropping a trailing dot', () => {
    expect(splitDomainPort('Example.ORG.:8000')).toEqual({ domain: 'example.org', port: '8000' });
    expect(splitDomainPort('[::1]:3000')).toEqual({ domain: '[::1]', port: '3000' });
    expect(splitDomainPort('bad host')).toEqual({ domain: '', port: '' });
    expect(splitDomainPort('evil.com/x')).toEqual({ domain: '', port: '' });
  });

  it('exact names, .domain wildcards and *', () => {
    expect(isAllowedHost('example.org', ['.example.org'])).toBe(true);
    expect(isAllowedHost('api.example.org', ['.example.org'])).toBe(true);
    expect(isAllowedHost('badexample.org', ['.example.org'])).toBe(false);
    expect(isAllowedHost('anything', ['*'])).toBe(true);
    expect(isAllowedHost('localhost', [''])).toBe(false);
  });
});

describe('trustedOrigin', () => {
  it('defaults to the local machine only', () => {
    expect(trustedOrigin({ host: 'localhost:3000', protocol: 'http' })).toBe('http://localhost:3000');
    expect(trustedOrigin({ host: '127.0.0.1', protocol: 'https' })).toBe('https://127.0.0.1');
    expect(() => trustedOrigin({ host: 'example.org', protocol: 'http' })).toThrow(DisallowedHost);
  });

  it("400 with Django's messages", () => {
    const error = (host: string | null) => {
      try {
        trustedOrigin({ host, protocol: 'http' });
      } catch (caught) {
        return caught as DisallowedHost;
      }
      throw new Error('expected a DisallowedHost');
    };
    expect(error('evil.com:81')).toMatchObject({
      status: 400,
      code: 'disallowed_host',
      detail: "Invalid HTTP_HOST header: 'evil.com:81'. You may need to add 'evil.com' to allowedHosts.",
    });
    expect(error(null).detail).toBe(
      "Invalid HTTP_HOST header: ''. The domain name provided is not valid according to RFC 1034/1035.",
    );
    expect(error("it's").detail).toBe(
      `Invalid HTTP_HOST header: "it's". The domain name provided is not valid according to RFC 1034/1035.`,
    );
  });

  it('hosts that pass the syntax but make no URL are 400s, not TypeErrors (issue 10)', () => {
    const detail = (host: string, allowedHosts?: string[]) => {
      try {
        trustedOrigin({ host, protocol: 'http' }, allowedHosts ? { allowedHosts } : {});
        return 'accepted';
      } catch (error) {
        expect(error).toBeInstanceOf(DisallowedHost);
        return (error as DisallowedHost).detail;
      }
    };
    expect(detail('localhost:99999')).toBe(
      "Invalid HTTP_HOST header: 'localhost:99999'. The port must be a number from 0 to 65535.",
    );
    expect(detail('localhost:65535')).toBe('accepted');
    expect(detail(`localhost:${'0'.repeat(6)}`)).toContain('The port must be');
    expect(detail('[::::]', ['*'])).toContain('not valid according to RFC 1034/1035');
    expect(detail('999.1.1.1', ['*'])).toContain('not valid according to RFC 1034/1035');
  });

  it('forwarded headers only with trustProxy, and still checked', () => {
    const evidence = {
      host: 'localhost',
      protocol: 'http' as const,
      forwardedHost: 'api.example.org',
      forwardedProto: 'https',
    };
    expect(trustedOrigin(evidence)).toBe('http://localhost');
    expect(trustedOrigin(evidence, { trustProxy: true, allowedHosts: ['.example.org'] })).toBe(
      'https://api.example.org',
    );
    expect(() => trustedOrigin(evidence, { trustProxy: true })).toThrow(DisallowedHost);
  });

  it('publicOrigin wins over everything', () => {
    expect(
      trustedOrigin({ host: 'evil.com', protocol: 'http' }, { publicOrigin: 'https://api.example.org/base' }),
    ).toBe('https://api.example.org');
  });
});

describe('ApiRequest.fromFetch / fromNode', () => {
  it('fromFetch rebuilds the URL on the trusted origin', () => {
    const request = ApiRequest.fromFetch(new Request('http://localhost:8000/a/?page=2', { method: 'head' }), {
      params: { version: 'v1' },
      namespace: 'v1',
    });
    expect(request.buildAbsoluteUri()).toBe('http://localhost:8000/a/?page=2');
    expect([request.method, request.params, request.namespace]).toEqual(['HEAD', { version: 'v1' }, 'v1']);
    expect(() => ApiRequest.fromFetch(new Request('http://evil.com/'))).toThrow(DisallowedHost);
  });

  it('fromFetch answers the same request whether it keeps the runtime URL or rebuilds it', async () => {
    const cases: Array<[string, RequestInit, string]> = [
      // The trusted origin is the URL's own: the runtime's URL is kept.
      [
        'http://localhost:8000/a/%C3%A9?page=2&x=%20',
        { method: 'patch', body: 'hi' },
        'http://localhost:8000/a/%C3%A9?page=2&x=%20',
      ],
      ['http://localhost:8000/', {}, 'http://localhost:8000/'],
      // A fragment or another Host: rebuilt on the trusted origin, as before.
      ['http://localhost:8000/a/?p=1#top', {}, 'http://localhost:8000/a/?p=1'],
      [
        'http://localhost:8000/a/',
        { headers: { 'x-forwarded-host': 'api.example.org' } },
        'http://api.example.org/a/',
      ],
    ];
    for (const [url, init, absolute] of cases) {
      const raw = new Request(url, {
        ...init,
        headers: { accept: 'text/html', ...(init.headers as object) },
      });
      const request = ApiRequest.fromFetch(raw, {
        trustProxy: true,
        allowedHosts: ['localhost', 'api.example.org'],
      });
      expect(request.buildAbsoluteUri(), url).toBe(absolute);
      expect(request.url.href).toBe(absolute);
      expect(request.method).toBe((init.method ?? 'GET').toUpperCase());
      expect(request.headers.get('accept')).toBe('text/html');
      expect(request.queryParams.entries()).toEqual([...new URL(absolute).searchParams.entries()]);
      expect([request.params, request.namespace]).toEqual([{}, null]);
      expect(await request.text()).toBe(init.body ?? '');
    }
  });

  it('fromNode reads Host, the TLS socket and repeated headers; a //path stays a path', () => {
    const request = ApiRequest.fromNode({
      method: 'GET',
      url: '//evil.com/x?y=1',
      headers: { host: 'localhost:3000', accept: ['text/html', 'application/json'] },
      socket: { encrypted: true },
    });
    expect(request.buildAbsoluteUri()).toBe('https://localhost:3000//evil.com/x?y=1');
    expect(request.headers.get('accept')).toBe('text/html, application/json');
  });

  it('fromNode takes Express originalUrl and the path of an absolute-form target', () => {
    const express = ApiRequest.fromNode({ url: '/x', originalUrl: '/api/x', headers: { host: '127.0.0.1' } });
    expect(express.url.pathname).toBe('/api/x');
    const absolute = ApiRequest.fromNode({ url: 'http://evil.com/p?q=1', headers: { host: 'localhost' } });
    expect(absolute.buildAbsoluteUri()).toBe('http://localhost/p?q=1');
  });
});
