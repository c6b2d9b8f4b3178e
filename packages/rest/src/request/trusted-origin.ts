import { ValidationError } from '@pagewise/core';

/**
 * How the HTTP bindings decide which origin absolute links may use.
 *
 * @example
 * createFetchHandler({ routes, allowedHosts: ['.example.org'], trustProxy: true })
 */
export interface TrustedOriginOptions {
  /**
   * Hosts (port ignored) a request may name, Django's `ALLOWED_HOSTS`: exact names, `.example.org`
   * for a domain and its subdomains, or `'*'` for any.
   * @default ['localhost', '127.0.0.1', '[::1]']
   */
  readonly allowedHosts?: readonly string[];
  /**
   * The origin links are built from, whatever the request says (`https://api.example.org`).
   * When set, the `Host` header is not consulted at all.
   * @default null
   */
  readonly publicOrigin?: string | URL | null;
  /**
   * Whether `X-Forwarded-Proto` and `X-Forwarded-Host` are believed (first value of each). Only
   * turn it on behind a proxy that sets them; a forwarded host must still be allowed.
   * @default false
   */
  readonly trustProxy?: boolean;
}

/**
 * The default `allowedHosts`: the local machine only.
 *
 * @example
 * createNodeHandler({ routes, allowedHosts: [...DEFAULT_ALLOWED_HOSTS, 'api.example.org'] })
 */
export const DEFAULT_ALLOWED_HOSTS: readonly string[] = Object.freeze(['localhost', '127.0.0.1', '[::1]']);

/**
 * 400 for a `Host` (or trusted `X-Forwarded-Host`) outside `allowedHosts`, with Django's
 * `DisallowedHost` message. The request is refused before any link could name that host.
 *
 * @example
 * throw new DisallowedHost('evil.com');
 * // detail: "Invalid HTTP_HOST header: 'evil.com'. You may need to add 'evil.com' to allowedHosts."
 */
export class DisallowedHost extends ValidationError {
  /** The host as the request sent it. */
  readonly host: string;

  /**
   * @param reason Why an allowed host is still unusable, replacing the `allowedHosts` hint
   * (`'The port must be a number from 0 to 65535.'`).
   */
  constructor(host: string, domain: string = splitDomainPort(host).domain, reason?: string) {
    super(
      `Invalid HTTP_HOST header: ${pythonRepr(host)}.` +
        (reason !== undefined
          ? ` ${reason}`
          : domain
            ? ` You may need to add ${pythonRepr(domain)} to allowedHosts.`
            : ' The domain name provided is not valid according to RFC 1034/1035.'),
      'disallowed_host',
    );
    this.host = host;
  }
}

/** Python's `repr()` of a string, which Django's message uses. */
function pythonRepr(text: string): string {
  const escaped = text.replaceAll('\\', '\\\\');
  if (text.includes("'") && !text.includes('"')) return `"${escaped}"`;
  return `'${escaped.replaceAll("'", "\\'")}'`;
}

const HOST_SYNTAX = /^([a-z0-9.-]+|\[[a-f0-9]*:[a-f0-9.:]+\])(:[0-9]+)?$/;

/**
 * Django's `split_domain_port`: the lower-cased domain (trailing dot removed) and port of a
 * `Host` value, or two empty strings when it is not a valid host.
 *
 * @example
 * splitDomainPort('Example.org.:8000') // { domain: 'example.org', port: '8000' }
 */
export function splitDomainPort(host: string): { domain: string; port: string } {
  const match = HOST_SYNTAX.exec(host.toLowerCase());
  if (!match) return { domain: '', port: '' };
  const domain = match[1]!;
  return { domain: domain.endsWith('.') ? domain.slice(0, -1) : domain, port: (match[2] ?? '').slice(1) };
}

/**
 * Django's `validate_host`: whether `domain` (already lower-cased, no port) matches one of the
 * patterns.
 *
 * @example
 * isAllowedHost('api.example.org', ['.example.org']) // true
 */
export function isAllowedHost(domain: string, allowedHosts: readonly string[]): boolean {
  return allowedHosts.some((raw) => {
    if (raw === '*') return true;
    const pattern = raw.toLowerCase();
    if (pattern === '') return false;
    return pattern.startsWith('.')
      ? domain.endsWith(pattern) || domain === pattern.slice(1)
      : domain === pattern;
  });
}

/** The first entry of a comma-separated header, trimmed; `null` when absent or blank. */
function firstValue(header: string | null | undefined): string | null {
  const first = header?.split(',')[0]?.trim();
  return first ? first : null;
}

/**
 * What a binding knows about where a request arrived.
 *
 * @example
 * trustedOrigin({ host: req.headers.host, protocol: 'http', forwardedHost: null })
 */
export interface OriginEvidence {
  /** The `Host` header (or HTTP/2 `:authority`). */
  readonly host: string | null;
  /** The scheme of the connection itself. */
  readonly protocol: 'http' | 'https';
  readonly forwardedHost?: string | null;
  readonly forwardedProto?: string | null;
}

/**
 * The origin (`http://localhost:8000`) a request's absolute URL may use: the public origin when
 * configured, otherwise the request's own host, as sent (`http://API.Example.com`), once it passed
 * `allowedHosts` (which ignores case, as Django's). Throws `DisallowedHost` (400) otherwise.
 *
 * @example
 * trustedOrigin({ host: 'localhost:3000', protocol: 'http' }) // 'http://localhost:3000'
 */
export function trustedOrigin(evidence: OriginEvidence, options: TrustedOriginOptions = {}): string {
  if (options.publicOrigin) return new URL(options.publicOrigin).origin;
  let protocol: string = evidence.protocol;
  let host = evidence.host ?? '';
  if (options.trustProxy) {
    const proto = firstValue(evidence.forwardedProto)?.toLowerCase();
    if (proto === 'http' || proto === 'https') protocol = proto;
    host = firstValue(evidence.forwardedHost) ?? host;
  }
  const { domain, port } = splitDomainPort(host);
  if (!domain || !isAllowedHost(domain, options.allowedHosts ?? DEFAULT_ALLOWED_HOSTS)) {
    throw new DisallowedHost(host, domain);
  }
  // Django stops at the syntax; a URL also needs a real port and host (`localhost:99999`,
  // `[::::]` or `999.1.1.1` behind `'*'`), and `new URL()` throwing would be a 500.
  if (port.length > 5 || Number(port) > 65535) throw new DisallowedHost(host, domain, BAD_PORT);
  try {
    new URL(`${protocol}://${host}`);
  } catch {
    throw new DisallowedHost(host, '');
  }
  // The host as sent, as Django's `get_host()` gives it to `build_absolute_uri`: its letters'
  // case and an explicit port stay (only the match above ignores case).
  return `${protocol}://${host}`;
}

const BAD_PORT = 'The port must be a number from 0 to 65535.';
