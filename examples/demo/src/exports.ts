import { type OrderedQuery, streamRows } from '@pagewise/core';
import { type ArticleRow, isoTimestamp } from './serializers.js';

/** Where an export reads its rows. */
export interface ArticleExportOptions {
  /** The articles; the export orders them by `id` itself. */
  readonly query: () => OrderedQuery<ArticleRow>;
  /** Rows per keyset statement. @default 1000 */
  readonly batchSize?: number;
}

const COLUMNS = ['id', 'title', 'body', 'author_id', 'published_at', 'rating'] as const;
/** Bytes of text gathered into one chunk before it is handed to the socket. */
const CHUNK = 64 * 1024;

function exportRecord(article: ArticleRow) {
  return {
    id: article.id,
    title: article.title,
    body: article.body,
    author_id: article.author_id,
    published_at: isoTimestamp(article.published_at),
    rating: article.rating,
  };
}

/**
 * One CSV field (RFC 4180): quoted when it holds a quote, comma or line break. A text starting
 * with `=`, `+`, `-` or `@` gets a leading `'`, so spreadsheets do not run it as a formula.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * A byte stream of `lines` that only reads on demand: `pull` runs when the consumer wants the
 * next chunk (Node's binding waits for the socket's `drain` before reading again), so a slow
 * client holds the walk back instead of the server queueing the table. Cancelling (the client
 * went away) ends the walk, which stops the statements.
 */
export function linesStream(lines: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const iterator = lines[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let chunk = '';
        while (chunk.length < CHUNK) {
          const next = await iterator.next();
          if (next.done) {
            if (chunk !== '') controller.enqueue(encoder.encode(chunk));
            controller.close();
            return;
          }
          chunk += next.value;
        }
        controller.enqueue(encoder.encode(chunk));
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

async function* ndjsonLines(options: ArticleExportOptions): AsyncIterable<string> {
  for await (const article of streamRows(options.query(), {
    ordering: 'id',
    batchSize: options.batchSize ?? 1000,
  })) {
    yield `${JSON.stringify(exportRecord(article))}\n`;
  }
}

async function* csvLines(options: ArticleExportOptions): AsyncIterable<string> {
  yield `${COLUMNS.join(',')}\r\n`;
  for await (const article of streamRows(options.query(), {
    ordering: 'id',
    batchSize: options.batchSize ?? 1000,
  })) {
    const record = exportRecord(article);
    yield `${COLUMNS.map((column) => csvField(record[column])).join(',')}\r\n`;
  }
}

/**
 * `GET /v1/articles/export.ndjson` and `.csv`: every article, by keyset on `id`, streamed.
 *
 * @example
 * hono.get('/v1/articles/export.ndjson', () => articleExport('ndjson', { query }));
 */
export function articleExport(format: 'ndjson' | 'csv', options: ArticleExportOptions): Response {
  const lines = format === 'ndjson' ? ndjsonLines(options) : csvLines(options);
  return new Response(linesStream(lines), {
    headers: {
      'content-type': format === 'ndjson' ? 'application/x-ndjson; charset=utf-8' : 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="articles.${format}"`,
      'cache-control': 'no-store',
    },
  });
}
