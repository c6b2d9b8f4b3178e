import { ApiRequest, type NodeRequestLike } from '../request/api-request.js';
import { type ApiResponse, toWire } from '../request/api-response.js';
import { answerRequest, type BindingOptions, headerRecord } from './binding.js';

export type { BindingOptions, NodeRequestLike };

/**
 * The parts of a Node `ServerResponse` the bindings use.
 *
 * @example
 * http.createServer((req, res) => writeNodeResponse(res, new ApiResponse({ ok: true }), 'GET'));
 */
export interface NodeResponseLike {
  writeHead(status: number, headers: Record<string, string | string[]>): unknown;
  end(body?: string): unknown;
}

/**
 * Writes an answer to a Node response.
 *
 * @example
 * writeNodeResponse(res, new ApiResponse({ detail: 'Not found.' }, { status: 404 }), req.method);
 */
export function writeNodeResponse(res: NodeResponseLike, response: ApiResponse, method: string): void {
  const wire = toWire(response, method);
  res.writeHead(wire.status, headerRecord(wire.headers));
  if (wire.body === null) res.end();
  else res.end(wire.body);
}

/**
 * A `node:http` request listener serving a route table.
 *
 * @example
 * http.createServer(createNodeHandler({ routes })).listen(3000);
 */
export function createNodeHandler(
  options: BindingOptions,
): (req: NodeRequestLike, res: NodeResponseLike) => Promise<void> {
  return async (req, res) => {
    const response = await answerRequest((init) => ApiRequest.fromNode(req, init), options);
    writeNodeResponse(res, response!, (req.method ?? 'GET').toUpperCase());
  };
}
