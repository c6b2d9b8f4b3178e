// DRF's five versioning schemes.

export type { VersionLifecycle, VersionLifecycleMap } from '../version-lifecycle.js';
export { AcceptHeaderVersioning } from './accept-header-versioning.js';
export {
  BaseVersioning,
  type VersioningClass,
  type VersioningOptions,
  type VersionStatus,
} from './base-versioning.js';
export { HostNameVersioning, type HostNameVersioningOptions } from './host-name-versioning.js';
export { NamespaceVersioning } from './namespace-versioning.js';
export { QueryParameterVersioning } from './query-parameter-versioning.js';
export { URLPathVersioning } from './url-path-versioning.js';
