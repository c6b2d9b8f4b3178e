// Issue 36 §1 on @pagewise/nest: a chunked write body (no Content-Length) that a view reads with
// readRequestData is refused at the 1 MiB cap while it is read, on both of Nest's platforms
// (the platform's own parsers cap what they parse; a text/plain body reaches Pagewise's reader
// on Express).
import type { AddressInfo } from 'node:net';
import { Controller, type INestApplication, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { PageRequest, PagewiseModule } from '@pagewise/nest';
import { type ApiRequest, ApiResponse, readRequestData } from '@pagewise/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, unterminatedChunks } from '../http/raw-socket.js';

@Controller('echo')
class EchoController {
  @Post()
  async echo(@PageRequest() request: ApiRequest) {
    return new ApiResponse({ received: await readRequestData(request) });
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
