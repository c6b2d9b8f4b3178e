import { type DynamicModule, type InjectionToken, Module, type ModuleMetadata } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR } from '@nestjs/core';
import { PagewiseExceptionFilter } from './pagewise-exception-filter.js';
import { freezeOptions, PAGEWISE_OPTIONS, type PagewiseOptions } from './pagewise-options.js';
import { PaginationInterceptor } from './pagination-interceptor.js';

/**
 * What `PagewiseModule.forRootAsync()` takes: options made by a factory with injected providers
 * (a `ConfigService`), as Nest's own modules take them.
 *
 * @example
 * PagewiseModule.forRootAsync({
 *   imports: [ConfigModule],
 *   inject: [ConfigService],
 *   useFactory: (config: ConfigService) => ({ allowedHosts: config.get('ALLOWED_HOSTS').split(',') }),
 * })
 */
export interface PagewiseAsyncOptions extends Pick<ModuleMetadata, 'imports'> {
  /** Providers passed to `useFactory`, in order. @default [] */
  readonly inject?: InjectionToken[];
  readonly useFactory: (...args: never[]) => PagewiseOptions | Promise<PagewiseOptions>;
}

/**
 * Registers Pagewise for the whole app: the `PaginationInterceptor` (the page's request, route
 * versioning, page values answered with body, status and `Link` header) and the
 * `PagewiseExceptionFilter` (DRF's error answers), globally, with the options under
 * `PAGEWISE_OPTIONS`. Import it once, in the root module.
 *
 * @example
 * @Module({
 *   imports: [PagewiseModule.forRoot({ allowedHosts: ['api.example.org'], versioning: AcceptHeaderVersioning })],
 *   controllers: [ArticlesController],
 * })
 * export class AppModule {}
 */
// biome-ignore lint/complexity/noStaticOnlyClass: a Nest module is a class; forRoot is Nest's convention
export class PagewiseModule {
  /**
   * The module with these options.
   * @default options {} (the bindings' defaults: local hosts only, no proxy, no versioning)
   */
  static forRoot(options: PagewiseOptions = {}): DynamicModule {
    return withOptions({ provide: PAGEWISE_OPTIONS, useValue: freezeOptions(options) });
  }

  /** The module with options a factory makes (see `PagewiseAsyncOptions`). */
  static forRootAsync(options: PagewiseAsyncOptions): DynamicModule {
    const { useFactory, inject = [], imports = [] } = options;
    return {
      ...withOptions({
        provide: PAGEWISE_OPTIONS,
        inject,
        useFactory: async (...args: never[]) => freezeOptions(await useFactory(...args)),
      }),
      imports,
    };
  }
}

function withOptions(
  provider: DynamicModule['providers'] extends (infer P)[] | undefined ? P : never,
): DynamicModule {
  return {
    module: PagewiseModule,
    global: true,
    providers: [
      provider,
      // Factories, not classes: nothing here depends on decorator metadata.
      {
        provide: APP_INTERCEPTOR,
        inject: [PAGEWISE_OPTIONS],
        useFactory: (options: PagewiseOptions) => new PaginationInterceptor(options),
      },
      { provide: APP_FILTER, useFactory: () => new PagewiseExceptionFilter() },
    ],
    exports: [PAGEWISE_OPTIONS],
  };
}

Module({})(PagewiseModule);
