import { fileURLToPath } from 'node:url';
import * as engine from '@pagewise/core';
import * as root from '@pagewise/rest';
import { createExpressMiddleware, toExpressHandler } from '@pagewise/rest/express';
import { createFastifyPlugin, toFastifyHandler } from '@pagewise/rest/fastify';
import { createFetchHandler, toFetchHandler } from '@pagewise/rest/fetch';
import { createHonoHandler, toHonoHandler } from '@pagewise/rest/hono';
import { createNodeHandler, toNodeHandler } from '@pagewise/rest/node';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { bundle, entryPoints } from '../support/bundle.js';

// The engine split (issue 30): @pagewise/core is the engine behind one entry point of at most 90
// names (API.md's bound; 80 at the split, 83 since the integer ranges moved in from rest, issue
// 37), none of the web layer; @pagewise/rest re-exports it (the very same objects, so instanceof
// holds across them) beside DRF's web layer, so every name the single package exported before the
// split still imports from @pagewise/rest; each framework binding is a subpath of rest; and a
// bundler keeps only what is used.

/**
 * Every name (values and types) `@pagewise/core` exported before it was split into entry points,
 * less the engine's own helpers the engine split keeps inside it (the cursor codec's options type
 * and `positionKey`, the value comparisons, the query-string and integer parsers, the `Link` header
 * length): they were never part of API.md's contract.
 */
const NAMES_BEFORE_THE_SPLIT = [
  'AcceptHeaderVersioning',
  'ApiError',
  'ApiRequest',
  'ApiRequestInit',
  'ApiResponse',
  'ApiSettings',
  'ApiSettingsOptions',
  'ApiView',
  'ApiViewOptions',
  'BasePagination',
  'BaseVersioning',
  'BindingOptions',
  'ConfigurationError',
  'CountMode',
  'CountResult',
  'Cursor',
  'CursorDecodeError',
  'CursorPage',
  'CursorPagination',
  'CursorPaginationOptions',
  'DEFAULT_ALLOWED_HOSTS',
  'DisallowedHost',
  'EmptyPage',
  'ExpressMiddlewareOptions',
  'FastifyInstanceLike',
  'FastifyReplyLike',
  'FastifyRequestLike',
  'FilterBackend',
  'FilterView',
  'FromHttpInit',
  'HonoContextLike',
  'HostNameVersioning',
  'HostNameVersioningOptions',
  'HostPage',
  'HtmlTemplate',
  'InvalidBoundError',
  'InvalidPage',
  'JsonSchema',
  'KeyTerm',
  'LimitOffsetPage',
  'LimitOffsetPagination',
  'LimitOffsetPaginationOptions',
  'LinkTemplate',
  'ListView',
  'ListViewOptions',
  'MediaType',
  'MethodNotAllowed',
  'NamespaceVersioning',
  'Negotiated',
  'NegotiationInput',
  'NoReverseMatch',
  'NodeRequestLike',
  'NodeResponseLike',
  'NotAcceptable',
  'NotFound',
  'NullsPlacement',
  'NumberedHtmlContext',
  'OpenApiDocumentOptions',
  'OpenApiOperation',
  'OpenApiParameter',
  'OpenApiVersion',
  'OrderTerm',
  'OrderedQuery',
  'OrderingFilter',
  'OrderingFilterOptions',
  'OrderingInput',
  'OrderingSource',
  'OriginEvidence',
  'PageLink',
  'PageNotAnInteger',
  'PageNumberPage',
  'PageNumberPagination',
  'PageNumberPaginationOptions',
  'PageSnapshot',
  'PageStyle',
  'PaginatedData',
  'PaginationClass',
  'PaginationView',
  'Paginator',
  'PaginatorOptions',
  'PositionValue',
  'PreviousNextHtmlContext',
  'QueryParameterVersioning',
  'QueryParams',
  'RenderContext',
  'Renderer',
  'ReverseOptions',
  'Route',
  'RouteHandler',
  'RouteMatch',
  'RouteParams',
  'Routes',
  'RowOf',
  'SERVER_ERROR_DETAIL',
  'SchemaOptions',
  'SerializerContext',
  'SortDirection',
  'TrustedOriginOptions',
  'URLPathVersioning',
  'UnorderedObjectListWarning',
  'ValidationError',
  'ValueKind',
  'VersioningClass',
  'VersioningOptions',
  'ViewFunction',
  'W001_MESSAGE',
  'WindowRow',
  'WindowSpec',
  'WireResponse',
  'answerRequest',
  'apiView',
  'browsableHtmlRenderer',
  'buildOpenApiDocument',
  'compareUnderTerm',
  'createExpressMiddleware',
  'createFastifyHandler',
  'createFastifyPlugin',
  'createFetchHandler',
  'createHonoHandler',
  'createNodeHandler',
  'decodeCursor',
  'defaultRenderers',
  'encodeCursor',
  'escapeHtml',
  'forcedRenderer',
  'getDisplayedPageNumbers',
  'getPageLinks',
  'headerRecord',
  'integerQueryParameter',
  'invertOrdering',
  'isAllowedHost',
  'isPositionValue',
  'jsonRenderer',
  'jsonReplacer',
  'kindOf',
  'linkHeader',
  'mediaTypePrecedence',
  'nullableType',
  'nullableUri',
  'numbersTemplate',
  'orderingFingerprint',
  'parseAccept',
  'parseMediaType',
  'parseOrdering',
  'patchVaryHeaders',
  'plainReverse',
  'positiveInt',
  'preserveBuiltinQueryParams',
  'previousNextTemplate',
  'removeQueryParam',
  'replaceQueryParam',
  'reverse',
  'selectRenderer',
  'settleNulls',
  'splitDomainPort',
  'toApiResponse',
  'toWire',
  'trustedOrigin',
  'writeNodeResponse',
];

/** The names, types included, that a TypeScript consumer of `@pagewise/core` can import. */
function exportNames(entry: string): string[] {
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    customConditions: ['@pagewise/source'],
    noEmit: true,
    // Export names need no standard library: leaving it out keeps this fast.
    noLib: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  return checker.getExportsOfModule(module).map((symbol) => symbol.name);
}

const source = (name: string) =>
  fileURLToPath(new URL(`../../packages/${name}/src/index.ts`, import.meta.url));

/** Names of DRF's web layer that must never come from the engine. */
const WEB_NAMES = [
  'ApiRequest',
  'ApiResponse',
  'ApiSettings',
  'BasePagination',
  'CursorPagination',
  'PageNumberPagination',
  'LimitOffsetPagination',
  'Paginator',
  'ListView',
  'Routes',
  'reverse',
  'URLPathVersioning',
  'buildOpenApiDocument',
  'numbersTemplate',
  'createHonoHandler',
  'Gone',
];

describe('@pagewise/core and @pagewise/rest entry points', () => {
  it('core is one entry point of at most 90 names, none of them the web layer’s', () => {
    expect(entryPoints('core')).toEqual(['@pagewise/core']);
    const names = exportNames(source('core'));
    expect(names.length).toBeLessThanOrEqual(90);
    expect(names.filter((name) => WEB_NAMES.includes(name))).toEqual([]);
    for (const name of ['cursorPage', 'pageNumberPage', 'limitOffsetPage', 'paginateCursor', 'streamRows']) {
      expect(names).toContain(name);
    }
  });

  it('every name exported before the split still imports from @pagewise/rest, types included', () => {
    const names = new Set(exportNames(source('rest')));
    expect(NAMES_BEFORE_THE_SPLIT.filter((name) => !names.has(name))).toEqual([]);
    // And rest re-exports the whole engine.
    expect(exportNames(source('core')).filter((name) => !names.has(name))).toEqual([]);
  });

  it('rest re-exports the engine’s own objects, and every subpath is the root’s own', async () => {
    for (const [name, value] of Object.entries(engine)) {
      expect((root as Record<string, unknown>)[name], name).toBe(value);
    }
    const entries = entryPoints('rest');
    expect(entries.sort()).toEqual(
      ['', '/express', '/fastify', '/fetch', '/graphql', '/hono', '/node'].map(
        (subpath) => `@pagewise/rest${subpath}`,
      ),
    );
    for (const entry of entries) {
      const exports: Record<string, unknown> = await import(entry);
      expect(Object.keys(exports).length, entry).toBeGreaterThan(0);
      for (const [name, value] of Object.entries(exports)) {
        expect((root as Record<string, unknown>)[name], `${entry} ${name}`).toBe(value);
      }
    }
    // The static imports above type-check and run through the same exports map.
    expect([createExpressMiddleware, createFastifyPlugin, createFetchHandler, createHonoHandler]).toEqual([
      root.createExpressMiddleware,
      root.createFastifyPlugin,
      root.createFetchHandler,
      root.createHonoHandler,
    ]);
    // Issue 13's per-route handlers live beside their framework's catch-all binding.
    expect([
      toExpressHandler,
      toFastifyHandler,
      toFetchHandler,
      toHonoHandler,
      toNodeHandler,
      createNodeHandler,
    ]).toEqual([
      root.toExpressHandler,
      root.toFastifyHandler,
      root.toFetchHandler,
      root.toHonoHandler,
      root.toNodeHandler,
      root.createNodeHandler,
    ]);
  });

  it('importing either root for nothing bundles to nothing (sideEffects: false, no top-level effects)', async () => {
    for (const entry of ['@pagewise/core', '@pagewise/rest']) {
      const { code } = await bundle(`import '${entry}';`, { minify: true });
      expect(code.trim(), entry).toBe('');
    }
  });
});

/**
 * What a bundle of DRF's cursor paginator alone may hold: its own file and the paginator plumbing
 * (rest/pagination/), the settings it reads its default page size from (and the version-lifecycle
 * parser the settings check), `ApiResponse`, the previous/next control `toHtml()` renders by
 * default (`html/pagination-html.ts`, a pure function of two links) and the schema fragments
 * `getPaginatedResponseSchema` returns (`openapi/schema-types.ts`); and the engine. Never: content
 * negotiation and renderers (http/), views/, routes/, versioning/, bindings/, the OpenAPI document
 * builder or any other module of html/ or openapi/.
 */
const ALLOWED_IN_REST = new Set([
  'rest/settings.ts',
  'rest/version-lifecycle.ts',
  'rest/request/api-response.ts',
  'rest/html/pagination-html.ts',
  'rest/openapi/schema-types.ts',
]);

/** The engine's rooms: what the engine's functions may bundle. */
const ENGINE = /^core\/(contract|cursor|pages|jobs|url)\/|^core\/(errors|warnings|index)\.ts$/;

describe('bundles', () => {
  it('CursorPagination alone: rest/pagination/ and the engine, no HTTP layer, HTML renderer, OpenAPI builder, views, routes or bindings', async ({
    annotate,
  }) => {
    const { bytes, modules } = await bundle("export { CursorPagination } from '@pagewise/rest';", {
      minify: true,
    });
    const own = modules.filter((path) => !path.includes('node_modules'));
    expect(own).toContain('rest/pagination/cursor-pagination.ts');
    const rest = own.filter((path) => path.startsWith('rest/') && !path.startsWith('rest/pagination/'));
    expect(rest.filter((path) => !ALLOWED_IN_REST.has(path) && path !== 'rest/index.ts')).toEqual([]);
    expect(own.filter((path) => path.startsWith('core/') && !ENGINE.test(path))).toEqual([]);
    // The engine's one dependency is @noble/hashes (the cursors' HMAC): nothing else comes from node_modules.
    expect(
      modules.filter((path) => path.includes('node_modules') && !path.includes('@noble/hashes')),
    ).toEqual([]);
    await annotate(`CursorPagination alone: ${bytes} bytes minified, ${modules.length} modules`);
  });

  it('the cursor engine alone is at most 38 KB minified and pulls in no web module', async ({ annotate }) => {
    const { bytes, modules } = await bundle(
      "export { cursorPage, paginateCursor, streamRows, connectionFromQuery } from '@pagewise/core';",
      { minify: true },
    );
    const own = modules.filter((path) => !path.includes('node_modules'));
    expect(own.every((path) => ENGINE.test(path))).toBe(true);
    // 25 KB before issue 36's publicOrigin and guidance messages (0.2 KB), @noble/hashes' HMAC-SHA256
    // (about 3 KB) in place of the hand-written one, encrypted, expiring cursors (about 3.5 KB) and
    // counts on cursor pages (about 3.5 KB).
    expect(bytes).toBeLessThanOrEqual(38 * 1024);
    await annotate(`the cursor engine alone: ${bytes} bytes minified, ${modules.length} modules`);
  });

  it('BasePagination, for a custom style, brings no html/ or openapi/ module at all', async () => {
    const { modules } = await bundle("export { BasePagination } from '@pagewise/rest';");
    expect(
      modules.filter((path) => /^rest\/(html|openapi|http|views|routes|versioning|bindings)\//.test(path)),
    ).toEqual([]);
    expect(modules).toContain('rest/pagination/base-pagination.ts');
  });

  it('the cursor codec alone is cursor/, the HMAC of @noble/hashes and the error classes, nothing else', async ({
    annotate,
  }) => {
    const { bytes, modules } = await bundle("export { decodeCursor, encodeCursor } from '@pagewise/core';", {
      minify: true,
    });
    expect(modules.filter((path) => !path.includes('node_modules')).sort()).toEqual([
      // Minting refuses an over-long cursor with a ConfigurationError.
      'core/cursor/base64url.ts',
      'core/cursor/cursor-codec.ts',
      'core/cursor/cursor-encryption.ts',
      'core/cursor/cursor-signature.ts',
      'core/errors.ts',
      'core/index.ts',
    ]);
    await annotate(`encodeCursor + decodeCursor: ${bytes} bytes minified, ${modules.length} modules`);
  });
});
