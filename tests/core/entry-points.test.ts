import { fileURLToPath } from 'node:url';
import * as root from '@pagewise/core';
import { createExpressMiddleware, toExpressHandler } from '@pagewise/core/express';
import { createFastifyPlugin, toFastifyHandler } from '@pagewise/core/fastify';
import { createFetchHandler, toFetchHandler } from '@pagewise/core/fetch';
import { createHonoHandler, toHonoHandler } from '@pagewise/core/hono';
import { numbersTemplate } from '@pagewise/core/html';
import { ApiRequest } from '@pagewise/core/http';
import { createNodeHandler, toNodeHandler } from '@pagewise/core/node';
import { buildOpenApiDocument } from '@pagewise/core/openapi';
import { CursorPagination } from '@pagewise/core/pagination';
import { Routes } from '@pagewise/core/routes';
import { URLPathVersioning } from '@pagewise/core/versioning';
import { ListView } from '@pagewise/core/views';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { bundle, coreEntryPoints } from '../support/bundle.js';

// @pagewise/core's entry points by concern: each subpath is a narrower view of the root (the very
// same objects, so instanceof holds across them), the root still exports every name it exported
// before the split, and a bundler keeps only what is used.

/** Every name (values and types) `@pagewise/core` exported before it was split into entry points. */
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
  'CursorCodecOptions',
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
  'MAX_LINK_HEADER_LENGTH',
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
  'compareCodePoints',
  'comparePositions',
  'compareStrings',
  'compareUnderTerm',
  'compareValues',
  'createExpressMiddleware',
  'createFastifyHandler',
  'createFastifyPlugin',
  'createFetchHandler',
  'createHonoHandler',
  'createNodeHandler',
  'decodeCursor',
  'decodeFormComponent',
  'defaultRenderers',
  'encodeCursor',
  'encodeFormComponent',
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
  'parsePythonInt',
  'parseQueryString',
  'patchVaryHeaders',
  'plainReverse',
  'positionKey',
  'positiveInt',
  'positiveIntOr',
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
function rootExportNames(): string[] {
  const entry = fileURLToPath(new URL('../../packages/core/src/index.ts', import.meta.url));
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
    // Export names need no standard library: leaving it out keeps this fast.
    noLib: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  return checker.getExportsOfModule(module).map((symbol) => symbol.name);
}

describe('@pagewise/core entry points', () => {
  it('every name exported before the split still imports from @pagewise/core, types included', () => {
    const names = new Set(rootExportNames());
    expect(NAMES_BEFORE_THE_SPLIT.filter((name) => !names.has(name))).toEqual([]);
  });

  it('every subpath resolves, and what it exports is the root’s own object', async () => {
    const entries = coreEntryPoints();
    expect(entries).toEqual(
      expect.arrayContaining(
        ['http', 'views', 'routes', 'openapi', 'html', 'fetch', 'hono', 'node', 'express', 'fastify'].map(
          (subpath) => `@pagewise/core/${subpath}`,
        ),
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
    expect([numbersTemplate, ApiRequest, createNodeHandler, buildOpenApiDocument]).toEqual([
      root.numbersTemplate,
      root.ApiRequest,
      root.createNodeHandler,
      root.buildOpenApiDocument,
    ]);
    // Issue 13's per-route handlers live beside their framework's catch-all binding.
    expect([toExpressHandler, toFastifyHandler, toFetchHandler, toHonoHandler, toNodeHandler]).toEqual([
      root.toExpressHandler,
      root.toFastifyHandler,
      root.toFetchHandler,
      root.toHonoHandler,
      root.toNodeHandler,
    ]);
    expect(toExpressHandler).toBeTypeOf('function');
    expect([CursorPagination, Routes, URLPathVersioning, ListView]).toEqual([
      root.CursorPagination,
      root.Routes,
      root.URLPathVersioning,
      root.ListView,
    ]);
  });

  it('importing the root for nothing bundles to nothing (sideEffects: false, no top-level effects)', async () => {
    const { code } = await bundle("import '@pagewise/core';", { minify: true });
    expect(code.trim()).toBe('');
  });
});

/**
 * What a bundle of the cursor paginator alone may hold. Core's parts it needs: pagination/,
 * errors.ts, settings.ts (its default settings), warnings.ts, and from request/ the request it
 * reads, the link builder and `ApiResponse`; the HMAC (@noble/hashes) for signed cursors. Two
 * leaves outside pagination/ are part of every paginator's API.md methods and are allowed by
 * name: `html/pagination-html.ts` (the previous/next control `toHtml()` renders by default, a pure
 * function of two links, no imports) and `openapi/schema-types.ts` (the schema fragments
 * `getPaginatedResponseSchema` returns, no imports). Never: content negotiation and renderers
 * (http/, which holds the browsable HTML renderer), views/, routes/, versioning/, bindings/, the
 * OpenAPI document builder or any other module of html/ or openapi/.
 */
const ALLOWED_OUTSIDE_PAGINATION = new Set([
  'errors.ts',
  'settings.ts',
  // ApiSettings checks its `lifecycle` dates where they are written: a small pure parser.
  'version-lifecycle.ts',
  'warnings.ts',
  'request/api-response.ts',
  'request/positive-int.ts',
  'request/query-string.ts',
  'html/pagination-html.ts',
  'openapi/schema-types.ts',
]);
const NEVER = /^(http|views|routes|versioning|bindings|html|openapi)\//;

describe('the cursor paginator bundles alone', () => {
  for (const entry of ['@pagewise/core', '@pagewise/core/pagination']) {
    it(`from ${entry}: no HTTP layer, HTML renderer, OpenAPI builder, views, routes or bindings`, async ({
      annotate,
    }) => {
      const { bytes, modules } = await bundle(`export { CursorPagination } from '${entry}';`, {
        minify: true,
      });
      const core = modules.filter((path) => !path.includes('node_modules'));
      const others = modules.filter((path) => path.includes('node_modules'));
      expect(core).toContain('pagination/cursor-pagination.ts');
      const outside = core.filter((path) => !path.startsWith('pagination/'));
      expect(outside.filter((path) => !ALLOWED_OUTSIDE_PAGINATION.has(path))).toEqual([]);
      expect(outside.filter((path) => NEVER.test(path) && !ALLOWED_OUTSIDE_PAGINATION.has(path))).toEqual([]);
      expect(others.every((path) => path.includes('@noble/hashes/'))).toBe(true);
      await annotate(`CursorPagination alone: ${bytes} bytes minified, ${modules.length} modules`);
    });
  }

  it('BasePagination, for a custom style, brings no html/ or openapi/ module at all', async () => {
    const { modules } = await bundle("export { BasePagination } from '@pagewise/core/pagination';");
    expect(modules.filter((path) => NEVER.test(path))).toEqual([]);
    expect(modules).toContain('pagination/base-pagination.ts');
  });

  it('the cursor codec alone is pagination/, the HMAC and the error classes, nothing else', async ({
    annotate,
  }) => {
    const { bytes, modules } = await bundle("export { decodeCursor, encodeCursor } from '@pagewise/core';", {
      minify: true,
    });
    expect(modules.filter((path) => !path.includes('node_modules')).sort()).toEqual([
      // Minting refuses an over-long cursor with a ConfigurationError.
      'errors.ts',
      'pagination/base64url.ts',
      'pagination/cursor-codec.ts',
      'pagination/cursor-signature.ts',
      'pagination/index.ts',
    ]);
    await annotate(`encodeCursor + decodeCursor: ${bytes} bytes minified, ${modules.length} modules`);
  });
});
