// Issue 36 §2: an HTTP/1.0 request names no Host. fromNode answers it 400 (no host to check
// against allowedHosts); the Hono and fetch bindings answered 200 with links on the listening
// address without its port (@hono/node-server fills in its hostname). The same request gets the
// same answer on every binding, written on a raw socket as a client sends it.
import { ApiResponse, apiView, Routes } from '@pagewise/rest';
import { describe, expect, it } from 'vitest';
import { BINDINGS, FETCH_BINDING, useServer } from './bindings.js';
import { rawRequest } from './raw-socket.js';

const routes = new Routes().add(
  '/here/',
  'here',
  apiView((request) => new ApiResponse({ url: request.buildAbsoluteUri() })),
);

for (const binding of [...BINDINGS, FETCH_BINDING]) {
  describe(`HTTP/1.0 with no Host [${binding.name}]`, () => {
    const current = useServer(binding, { routes, allowedHosts: ['127.0.0.1', 'localhost'] });
    const published = useServer(binding, { routes, publicOrigin: 'https://api.example.org' });

    it('answers 400, and names no host it made up', async () => {
      const answer = await rawRequest(current().server.port, 'GET /here/ HTTP/1.0\r\n\r\n');
      expect(answer.status, answer.head + answer.body).toBe(400);
      expect(answer.body).not.toContain('127.0.0.1');
    });

    it('with a Host, or with publicOrigin, answers 200 with that origin', async () => {
      const { port } = current().server;
      const named = await rawRequest(port, `GET /here/ HTTP/1.0\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      expect(named.status).toBe(200);
      expect(JSON.parse(named.body)).toEqual({ url: `http://127.0.0.1:${port}/here/` });
      const configured = await rawRequest(published().server.port, 'GET /here/ HTTP/1.0\r\n\r\n');
      expect(configured.status).toBe(200);
      expect(JSON.parse(configured.body)).toEqual({ url: 'https://api.example.org/here/' });
    });
  });
}
