import {
  AcceptHeaderVersioning,
  HostNameVersioning,
  NamespaceVersioning,
  QueryParameterVersioning,
  URLPathVersioning,
  type VersioningClass,
  type VersionLifecycleMap,
} from '@pagewise/rest';

/**
 * v1 is deprecated: its responses say so (`Deprecation`, `Sunset`, `Link` headers and a notice on
 * the browsable page) until its sunset, after which it answers 410 Gone. v2 is current.
 */
export const DEMO_LIFECYCLE: VersionLifecycleMap = {
  v1: {
    deprecated: '2026-06-01',
    sunset: '2030-01-01',
    link: 'https://github.com/pagewise/pagewise/blob/main/docs/versioning.md#deprecating-a-version',
  },
};

/** The schemes `VERSIONING` may name. */
export type VersioningName = 'path' | 'accept' | 'namespace' | 'host' | 'query';
export const VERSIONING_NAMES: readonly VersioningName[] = ['path', 'accept', 'namespace', 'host', 'query'];

/** `v1.localhost` and `v2.localhost` name versions; any other host gets the default. */
class DemoHostNameVersioning extends HostNameVersioning {
  override hostnameRegex = /^([a-zA-Z0-9]+)\.localhost$/;
}

/** The versioning class of a scheme name. */
export function versioningClass(name: VersioningName): VersioningClass {
  switch (name) {
    case 'path':
      return URLPathVersioning;
    case 'accept':
      return AcceptHeaderVersioning;
    case 'namespace':
      return NamespaceVersioning;
    case 'host':
      return DemoHostNameVersioning;
    case 'query':
      return QueryParameterVersioning;
  }
}

export function parseVersioning(value: string | undefined): VersioningName {
  const name = (value ?? 'path').toLowerCase();
  if (!(VERSIONING_NAMES as readonly string[]).includes(name)) {
    throw new Error(
      `VERSIONING must be one of ${VERSIONING_NAMES.join(', ')} (got ${JSON.stringify(value)})`,
    );
  }
  return name as VersioningName;
}
