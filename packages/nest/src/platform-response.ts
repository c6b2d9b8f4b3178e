import type { ArgumentsHost } from '@nestjs/common';
import { type ApiResponse, headerRecord, toWire } from '@pagewise/rest';

/** Fastify's reply, as far as Pagewise writes to it. */
interface FastifyReplyLike {
  readonly raw: unknown;
  readonly sent?: boolean;
  code(status: number): unknown;
  header(name: string, value: string | string[]): unknown;
  getHeader(name: string): unknown;
  send(payload?: Uint8Array): unknown;
}

/** A Node `ServerResponse`, which Express's response is. */
interface NodeResponseLike {
  statusCode: number;
  readonly headersSent?: boolean;
  setHeader(name: string, value: string | string[]): unknown;
  getHeader(name: string): unknown;
  end(body?: string): unknown;
}

/**
 * One response of Express's or Fastify's platform behind the few calls Pagewise makes, so the
 * interceptor and the filter need no `HttpAdapterHost` (and no injection) to write to it.
 *
 * @example
 * const response = platformResponse(host);
 * response.status(404);
 */
export interface PlatformResponse {
  status(status: number): void;
  /** A header's value, several joined with `, `; `null` when not set. */
  get(name: string): string | null;
  set(name: string, value: string | string[]): void;
  /** Whether the headers went out already (a streamed body that failed midway). */
  readonly sent: boolean;
  /** Sends `response` as JSON with its status and headers (no body for HEAD). */
  send(response: ApiResponse, method: string): void;
}

function isFastifyReply(value: unknown): value is FastifyReplyLike {
  const reply = value as Partial<FastifyReplyLike> | null;
  return (
    typeof reply === 'object' &&
    reply !== null &&
    typeof reply.code === 'function' &&
    typeof reply.header === 'function' &&
    typeof reply.raw === 'object'
  );
}

function headerText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** The HTTP response of `host` (Fastify's reply or Express's/Node's response). */
export function platformResponse(host: ArgumentsHost): PlatformResponse {
  const response: unknown = host.switchToHttp().getResponse();
  if (isFastifyReply(response)) {
    return {
      status: (status) => void response.code(status),
      get: (name) => headerText(response.getHeader(name)),
      set: (name, value) => void response.header(name, value),
      get sent() {
        return response.sent === true;
      },
      send(apiResponse, method) {
        const wire = toWire(apiResponse, method);
        response.code(wire.status);
        for (const [name, value] of Object.entries(headerRecord(wire.headers))) response.header(name, value);
        // Bytes, not a string: Fastify would append `; charset=utf-8` to a string's Content-Type.
        response.send(new TextEncoder().encode(wire.body ?? ''));
      },
    };
  }
  const node = response as NodeResponseLike;
  return {
    status: (status) => {
      node.statusCode = status;
    },
    get: (name) => headerText(node.getHeader(name)),
    set: (name, value) => void node.setHeader(name, value),
    get sent() {
      return node.headersSent === true;
    },
    send(apiResponse, method) {
      const wire = toWire(apiResponse, method);
      node.statusCode = wire.status;
      for (const [name, value] of Object.entries(headerRecord(wire.headers))) node.setHeader(name, value);
      node.end(wire.body ?? undefined);
    },
  };
}

/**
 * Adds `link` values to the response's `Link` header, one header as paginators write it: a page's
 * links go `first`, a version's deprecation link after what is there.
 */
export function mergeLink(response: PlatformResponse, link: string, first: boolean): void {
  const existing = response.get('link');
  if (existing === null || existing === '') response.set('link', link);
  else response.set('link', first ? `${link}, ${existing}` : `${existing}, ${link}`);
}
