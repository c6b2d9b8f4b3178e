import { PassThrough, Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { IncompleteBody, PayloadTooLarge, readFetchBody, readNodeBody } from './body-limit.js';

describe('readNodeBody', () => {
  test('reads every chunk, multi-byte characters split across chunks included', async () => {
    const bytes = new TextEncoder().encode('{"name":"Zoë"}');
    const stream = Readable.from([bytes.subarray(0, 11), bytes.subarray(11)]);
    expect(await readNodeBody(stream, 100)).toBe('{"name":"Zoë"}');
  });

  test('refuses past the cap at once, and leaves the rest flowing to no one', async () => {
    const stream = new PassThrough();
    const read = readNodeBody(stream, 10);
    stream.write('0123456789');
    stream.write('a');
    await expect(read).rejects.toThrow(PayloadTooLarge);
    // Still flowing (not destroyed, not paused): later bytes are dropped, the stream ends.
    const ended = new Promise((resolve) => stream.once('end', resolve));
    stream.end('more');
    await ended;
    expect(stream.readableEnded).toBe(true);
  });

  test('a client gone before the end is an incomplete body, not a truncated one', async () => {
    const stream = new PassThrough();
    const read = readNodeBody(stream, 100);
    stream.write('{"a":12');
    stream.destroy();
    await expect(read).rejects.toThrow(IncompleteBody);
  });

  test('a stream read already answers the empty body', async () => {
    const stream = Readable.from(['x']);
    for await (const _ of stream) void _;
    expect(await readNodeBody(stream, 100)).toBe('');
  });
});

test('readFetchBody refuses past the cap, drops a bounded rest, then cancels a body that never ends', async () => {
  let pulled = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += 1;
      controller.enqueue(new Uint8Array(64));
    },
    cancel() {
      cancelled = true;
    },
  });
  const request = new Request('http://x/', { method: 'POST', body, duplex: 'half' } as RequestInit);
  await expect(readFetchBody(request, 1000)).rejects.toThrow(PayloadTooLarge);
  // The rest is dropped in the background, up to 8 MiB, and then the stream is cancelled.
  for (let waited = 0; !cancelled && waited < 10_000; waited += 10) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(cancelled).toBe(true);
  const read = pulled;
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(pulled).toBe(read);
  expect(pulled * 64).toBeLessThanOrEqual(1000 + 8 * 1024 * 1024 + 64 * 64);
  expect(await readFetchBody(new Request('http://x/', { method: 'POST', body: 'ok' }), 10)).toBe('ok');
});
