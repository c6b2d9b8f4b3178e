// Issue 36 §1: a write body sent chunked (no Content-Length) was read whole before the 1 MiB cap
// was checked, so a 256 MiB POST was buffered in full before its 413. Every binding stops at the
// cap while reading: the 413 arrives while the client is still sending.
import { ApiResponse, apiView, Routes, readRequestData } from '@pagewise/rest';
import { describe, expect, it } from 'vitest';
import { BINDINGS, FETCH_BINDING, useServer } from './bindings.js';
import { rawRequest, unterminatedChunks } from './raw-socket.js';

const routes = new Routes().add(
  '/echo/',
  'echo',
  apiView(async (request) => new ApiResponse({ received: await readRequestData(request) }), {
    methods: ['POST'],
  }),
);

const head = (port: number) =>
  `POST /echo/ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
  'Transfer-Encoding: chunked\r\n\r\n';

for (const binding of [...BINDINGS, FETCH_BINDING]) {
  describe(`a chunked body over the cap [${binding.name}]`, () => {
    const current = useServer(binding, { routes, allowedHosts: ['127.0.0.1'] });

    it('answers 413 once 1 MiB is read, while the rest of the body is still on its way', async () => {
      const { server } = current();
      // 8 MiB, never terminated: a server that waits for the end of the body never answers.
      const answer = await rawRequest(server.port, head(server.port), {
        body: unterminatedChunks(8 * 1024 * 1024),
      });
      expect(answer.status, answer.head).toBe(413);
    });

    it('a chunked body under the cap is read as before, and the server goes on serving', async () => {
      const { server } = current();
      const response = await fetch(`${server.origin}/echo/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new Blob([JSON.stringify({ name: 'Ada', pad: ' '.repeat(900_000) })]).stream(),
        duplex: 'half',
      } as RequestInit);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { received: { name: string } }).received.name).toBe('Ada');
    });
  });
}
