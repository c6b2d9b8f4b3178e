// `@pagewise/rest`: Django REST Framework's web layer on the Pagewise engine. Requests and
// responses, settings, the DRF paginator classes (thin layers over `@pagewise/core`'s page
// functions, with their HTML and OpenAPI hooks), versioning, routes and `reverse`, views,
// viewsets, routers, filters, renderers and content negotiation, HTML, OpenAPI documents and the
// version lifecycle. It re-exports the engine, so one import serves an HTTP app; each framework
// binding is also an entry point of its own (`@pagewise/rest/hono`, `./express`, `./fastify`,
// `./node`, `./fetch`), and so are the GraphQL helpers (`./graphql`). With `sideEffects: false`, a bundler keeps only what is imported.

export * from '@pagewise/core';
export * from './bindings/index.js';
export * from './graphql/index.js';
export * from './html/index.js';
export * from './http/index.js';
export * from './openapi/index.js';
export * from './pagination/index.js';
export * from './routes/index.js';
export { ApiSettings, type ApiSettingsOptions, W001_MESSAGE } from './settings.js';
export { Gone, type VersionLifecycle } from './version-lifecycle.js';
export * from './versioning/index.js';
export * from './views/index.js';
