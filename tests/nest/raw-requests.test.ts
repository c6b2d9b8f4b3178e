// Requests only a raw socket sends, on @pagewise/nest (issue 36). §2: an HTTP/1.0 request with no
// Host is a 400, as on every other binding (tests/http/no-host.test.ts). §1: a chunked write body (no Content-Length) that a view reads with
// readRequestData is refused at the 1 MiB cap while it is read, on both of Nest's platforms
// (the platform's own parsers cap what they parse; a text/plain body reaches Pagewise's reader
// on Express).
import type { AddressInfo } from 'node:net';
import { Controller, Get, type INestApplication, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { PageRequest, PageUrl, PagewiseModule } from '@pagewise/nest';
import { type ApiRequest, ApiResponse, readRequestData } from '@pagewise/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, unterminatedChunks } from '../http/raw-socket.js';

@Controller('echo')
class EchoController {
  @Post()
  async echo(@PageRequest() request: ApiRequest) {
    return new ApiResponse({ received: await readRequestData(request) });
  }

  @Get('here')
  here(@PageUrl() url: URL) {
    return { url: url.href };
  }
}

@Module({
  imports: [PagewiseModule.forRoot({ allowedHosts: ['127.0.0.1'] })],
  controllers: [EchoController],
})
class EchoModule {}

const PLATFORMS = [
  { name: 'express', create: () => NestFactory.create(EchoModule, { logger: false }) },
  { name: 'fastify', create: () => NestFactory.create(EchoModule, new FastifyAdapter(), { logger: false }) },
] as const;

for (const platform of PLATFORMS) {
  describe(`Nest on ${platform.name}: a chunked body over the cap`, () => {
    let app: INestApplication;
    let port = 0;
    beforeAll(async () => {
      app = await platform.create();
      await app.listen(0, '127.0.0.1');
      port = (app.getHttpServer().address() as AddressInfo).port;
    });
    afterAll(async () => {
      await app?.close();
    });

    const head = (type: string) =>
      `POST /echo HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: ${type}\r\n` +
      'Transfer-Encoding: chunked\r\n\r\n';

    it('HTTP/1.0 with no Host: 400, as every binding answers it', async () => {
      const answer = await rawRequest(port, 'GET /echo/here HTTP/1.0\r\n\r\n');
      expect(answer.status, answer.head + answer.body).toBe(400);
      const named = await rawRequest(port, `GET /echo/here HTTP/1.0\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      expect(JSON.parse(named.body)).toEqual({ url: `http://127.0.0.1:${port}/echo/here` });
    });

    it('413 while the rest of the body is still on its way (Pagewise reads it on Express)', async () => {
      const answer = await rawRequest(port, head('text/plain'), {
        body: unterminatedChunks(8 * 1024 * 1024),
      });
      expect(answer.status, answer.head).toBe(413);
    });

    it('a JSON body the platform parses is capped by the platform', async () => {
      // Nest's Express parser (body-parser) refuses past its 100 kB limit but answers only once the
      // client has sent the rest, which it discards unbuffered: the body here ends.
      async function* ended() {
        yield* unterminatedChunks(8 * 1024 * 1024);
        yield '0\r\n\r\n';
      }
      const answer = await rawRequest(port, head('application/json'), {
        body: platform.name === 'express' ? ended() : unterminatedChunks(8 * 1024 * 1024),
      });
      expect(answer.status, answer.head).toBe(413);
    });
  });
}
