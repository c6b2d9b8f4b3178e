// Issue 36 §1: the server's resident memory while a 256 MiB chunked POST (no Content-Length)
// reaches a view that reads its body with readRequestData (1 MiB cap), on each node binding.
// The server runs in a child process that samples its RSS every 20 ms; the parent sends the body
// on a raw socket and reports the peak, the status and how long the answer took.
//   pnpm --filter @pagewise/bench exec tsx --conditions=@pagewise/source src/chunked-body-rss.ts [node|hono]
import { fork } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { serve } from '@hono/node-server';
import {
  ApiResponse,
  apiView,
  createHonoHandler,
  createNodeHandler,
  Routes,
  readRequestData,
} from '@pagewise/rest';
import { Hono } from 'hono';

const TOTAL = 256 * 1024 * 1024;

async function server(binding: string): Promise<void> {
  const routes = new Routes().add(
    '/echo/',
    'echo',
    apiView(
      async (request) => new ApiResponse({ length: JSON.stringify(await readRequestData(request)).length }),
      {
        methods: ['POST'],
      },
    ),
  );
  const options = { routes, allowedHosts: ['127.0.0.1'] };
  let peak = process.memoryUsage().rss;
  setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20).unref();
  const port = await new Promise<number>((resolve) => {
    if (binding === 'hono') {
      const app = new Hono();
      app.all('*', createHonoHandler({ ...options, fallthrough: false }));
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(info.port));
      void s;
    } else {
      const s = http.createServer(createNodeHandler(options));
      s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port));
    }
  });
  global.gc?.();
  process.send!({ port, rss: process.memoryUsage().rss });
  process.on('message', () => process.send!({ peak }));
}

async function client(binding: string): Promise<void> {
  const child = fork(new URL(import.meta.url).pathname, ['server', binding], {
    execArgv: [...process.execArgv, '--expose-gc'],
  });
  const { port, rss } = await new Promise<{ port: number; rss: number }>((resolve) =>
    child.once('message', resolve as never),
  );
  const started = performance.now();
  const status = await new Promise<{ status: string; ms: number; sent: number }>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let sent = 0;
    let answered: { status: string; ms: number; sent: number } | null = null;
    socket.on('data', (chunk) => {
      answered ??= {
        status: chunk.toString('latin1').split('\r\n')[0]!,
        ms: performance.now() - started,
        sent,
      };
    });
    socket.on('error', () => undefined);
    socket.on('close', () =>
      resolve(answered ?? { status: 'closed', ms: performance.now() - started, sent }),
    );
    socket.write(
      `POST /echo/ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const size = 1024 * 1024;
    const chunk = Buffer.concat([
      Buffer.from(`${size.toString(16)}\r\n`),
      Buffer.alloc(size, 0x20),
      Buffer.from('\r\n'),
    ]);
    const pump = () => {
      while (sent < TOTAL) {
        sent += size;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
      socket.end('0\r\n\r\n');
    };
    pump();
  });
  child.send('peak');
  const { peak } = await new Promise<{ peak: number }>((resolve) => child.once('message', resolve as never));
  child.kill();
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
  console.log(
    `${binding}: ${status.status} after ${status.ms.toFixed(0)} ms (${mb(status.sent)} sent by then); ` +
      `server RSS ${mb(rss)} idle, peak ${mb(peak)}`,
  );
}

if (process.argv[2] === 'server') await server(process.argv[3] ?? 'node');
else
  for (const binding of process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['node', 'hono'])
    await client(binding);
