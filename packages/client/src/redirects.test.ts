import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { iterateResults } from './iterate-pages.js';

// Issue 36 §2: a same-origin `next` link that answers 302 to another origin sent the caller's
// `headers` (an API key) there, and the walk yielded that origin's items. Two real servers on
// loopback: `api` (the origin the caller named) and `evil`, which records what reached it.

interface Received {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

let api: Server;
let evil: Server;
let apiOrigin = '';
let evilOrigin = '';
let apiReceived: Received[] = [];
let evilReceived: Received[] = [];

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function json(res: import('node:http').ServerResponse, body: unknown, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  api = createServer((req, res) => {
    apiReceived.push({ url: req.url ?? '', headers: req.headers });
    if (req.url === '/items/') return json(res, { next: `${apiOrigin}/items/?page=2`, results: [1, 2] });
    if (req.url === '/items/?page=2') {
      res.writeHead(302, { location: `${evilOrigin}/items/?page=2` });
      return res.end();
    }
    if (req.url === '/moved/') {
      res.writeHead(301, { location: '/items/' });
      return res.end();
    }
    return json(res, { detail: 'Not found.' }, 404);
  });
  evil = createServer((req, res) => {
    evilReceived.push({ url: req.url ?? '', headers: req.headers });
    json(res, { next: null, results: ['evil-1', 'evil-2'] });
  });
  apiOrigin = await listen(api);
  evilOrigin = await listen(evil);
});

afterAll(async () => {
  for (const server of [api, evil]) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

beforeEach(() => {
  apiReceived = [];
  evilReceived = [];
});

async function walk(url: string, options: Parameters<typeof iterateResults>[1]) {
  const values: unknown[] = [];
  try {
    for await (const value of iterateResults(url, options)) values.push(value);
    return { values, error: null };
  } catch (error) {
    return { values, error };
  }
}

describe('redirects to another origin', () => {
  test('the caller’s headers never reach the other origin, and its page is refused', async () => {
    const { values, error } = await walk(`${apiOrigin}/items/`, { headers: { 'x-api-key': 'SECRET-KEY' } });
    expect(values).toEqual([1, 2]);
    expect(error).toMatchObject({ code: 'cross_origin', status: 302, url: `${evilOrigin}/items/?page=2` });
    // Nothing at all was sent to the other origin.
    expect(evilReceived).toEqual([]);
    expect(apiReceived.map((r) => r.headers['x-api-key'])).toEqual(['SECRET-KEY', 'SECRET-KEY']);
  });

  test('with allowCrossOrigin the other origin’s page is read, without the caller’s headers', async () => {
    const { values, error } = await walk(`${apiOrigin}/items/`, {
      headers: { 'x-api-key': 'SECRET-KEY', accept: 'application/json; version=2' },
      allowCrossOrigin: true,
    });
    expect(error).toBeNull();
    expect(values).toEqual([1, 2, 'evil-1', 'evil-2']);
    expect(evilReceived).toHaveLength(1);
    expect(evilReceived[0]!.headers['x-api-key']).toBeUndefined();
    // What to send is still said: the media type (and its version) is no credential.
    expect(evilReceived[0]!.headers.accept).toBe('application/json; version=2');
  });

  test('a redirect within the origin is followed with the headers', async () => {
    const { values, error } = await walk(`${apiOrigin}/moved/`, { headers: { 'x-api-key': 'K' } });
    expect(values).toEqual([1, 2]);
    expect(error).toMatchObject({ code: 'cross_origin' });
    expect(apiReceived.map((r) => [r.url, r.headers['x-api-key']])).toEqual([
      ['/moved/', 'K'],
      ['/items/', 'K'],
      ['/items/?page=2', 'K'],
    ]);
    expect(evilReceived).toEqual([]);
  });

  test('a fetch that follows redirects itself: the page from another origin is refused', async () => {
    const following = (input: string, init: RequestInit) => fetch(input, { ...init, redirect: 'follow' });
    const { values, error } = await walk(`${apiOrigin}/items/`, { fetch: following });
    expect(values).toEqual([1, 2]);
    expect(error).toMatchObject({ code: 'cross_origin', url: `${evilOrigin}/items/?page=2` });
  });
});
