import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { expect, test } from 'vitest';
import { rawGet } from './http-client.js';

/**
 * The keep-alive race behind the fuzz test's rare `socket hang up` / `read ECONNRESET`: a server
 * closes a connection idle for `keepAliveTimeout` (Node's default, 5 s), and a client that keeps
 * its idle sockets longer may send a request on one at the instant the server closes it. The
 * client must close its idle sockets first, so the server's keep-alive timer never fires.
 */
test('rawGet closes an idle pooled socket before the server keep-alive timeout does', async () => {
  // Served as the demo harness serves it: @hono/node-server with Node's default timeouts.
  const server = serve({ fetch: () => new Response('ok'), port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const events: string[] = [];
  const closed = new Promise<void>((resolve) =>
    server.on('connection', (socket) => {
      socket.on('timeout', () => events.push('server keep-alive timeout'));
      socket.on('close', () => {
        events.push('closed');
        resolve();
      });
    }),
  );
  try {
    const answer = await rawGet((server.address() as AddressInfo).port, '/');
    expect(answer.status).toBe(200);
    const idleSince = Date.now();
    await closed;
    expect(events).toEqual(['closed']);
    expect(Date.now() - idleSince).toBeLessThan(server.keepAliveTimeout);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}, 15_000);
