import { ConfigurationError } from '../errors.js';

/**
 * `url` moved onto `publicOrigin` (its scheme, host and port; a path there is ignored, as in
 * `@pagewise/rest`'s bindings): the path and query stay the request's, so no link can name a host
 * the request made up. Without a public origin, `url` as it is.
 *
 * @example
 * onPublicOrigin('http://evil.example/articles/?cursor=x', 'https://api.example.org')
 * // 'https://api.example.org/articles/?cursor=x'
 */
export function onPublicOrigin(url: string | URL, publicOrigin: string | null | undefined): string | URL {
  if (publicOrigin === null || publicOrigin === undefined) return url;
  let origin: URL;
  try {
    origin = new URL(publicOrigin);
  } catch {
    origin = new URL('invalid:');
  }
  if (origin.protocol !== 'http:' && origin.protocol !== 'https:') {
    throw new ConfigurationError(
      `publicOrigin must be an absolute http(s) URL such as 'https://api.example.org' (got ${JSON.stringify(publicOrigin)})`,
    );
  }
  const { pathname, search, hash } = typeof url === 'string' ? new URL(url) : url;
  return origin.origin + pathname + search + hash;
}
