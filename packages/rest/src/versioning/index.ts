// DRF's five versioning schemes, a header scheme, and versions as code (bundles of version changes).

export {
  type BundledVersion,
  type DefaultVersionFunction,
  isCalendarDate,
  isVersionBundle,
  isVersionChange,
  VersionBundle,
  type VersionBundleOptions,
  type VersionChange,
  type VersionChangeContext,
  type VersionChangeOptions,
  type VersionedBody,
  type VersionSchemaContext,
  versionBundle,
  versionChange,
  versionChangelog,
} from '../version-bundle.js';
export type { VersionLifecycle, VersionLifecycleMap } from '../version-lifecycle.js';
export { AcceptHeaderVersioning } from './accept-header-versioning.js';
export {
  BaseVersioning,
  type VersioningClass,
  type VersioningOptions,
  type VersionStatus,
} from './base-versioning.js';
export { HeaderVersioning, type HeaderVersioningOptions } from './header-versioning.js';
export { HostNameVersioning, type HostNameVersioningOptions } from './host-name-versioning.js';
export { NamespaceVersioning } from './namespace-versioning.js';
export { QueryParameterVersioning } from './query-parameter-versioning.js';
export { URLPathVersioning } from './url-path-versioning.js';
