// `@pagewise/core`: every public name. Its runtime-neutral centre (pagination, cursors,
// versioning, errors, requests and responses) uses Web standards only; the web layer (views,
// routes, renderers, OpenAPI, HTML, framework bindings) is re-exported here so that existing
// imports keep working, and each concern is also an entry point of its own (package.json
// `exports`). With `sideEffects: false`, a bundler keeps only what is imported.

export * from './bindings/index.js';
export {
  ApiError,
  ConfigurationError,
  type FieldErrors,
  Gone,
  isApiError,
  isConfigurationError,
  NotAcceptable,
  NotFound,
  ValidationError,
} from './errors.js';
export * from './html/index.js';
export * from './http/index.js';
export * from './openapi/index.js';
export * from './pagination/index.js';
export * from './routes/index.js';
export { ApiSettings, type ApiSettingsOptions, W001_MESSAGE } from './settings.js';
export * from './versioning/index.js';
export * from './views/index.js';
export { emitWarning, type WarningHook, type WarningOptions } from './warnings.js';
