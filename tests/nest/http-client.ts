// A GET over loopback HTTP with any headers: fetch() may not set `Host`, which the host checks need.
import http from 'node:http';

export interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: unknown;
}

/** GETs `url`, sending `headers` as they are; a JSON body is parsed. */
export function get(url: string, headers: Readonly<Record<string, string>> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => {
        const json = (response.headers['content-type'] ?? '').startsWith('application/json');
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: json ? JSON.parse(text) : text,
        });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}
