// Nest 12's two platforms, and an app of a module listening on a free loopback port.
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';

export const PLATFORMS = [
  { name: 'express', adapter: () => undefined },
  { name: 'fastify', adapter: () => new FastifyAdapter() },
] as const;

/** `module`'s app on `adapter` (Express when undefined), listening; its origin. */
export async function start(
  module: object,
  adapter: FastifyAdapter | undefined,
): Promise<[INestApplication, string]> {
  const app = adapter
    ? await NestFactory.create(module, adapter, { logger: false })
    : await NestFactory.create(module, { logger: false });
  await app.listen(0, '127.0.0.1');
  return [app, `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`];
}
