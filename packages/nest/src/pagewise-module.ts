import {
  type DynamicModule,
  Inject,
  type InjectionToken,
  Module,
  type ModuleMetadata,
  type OnModuleInit,
} from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, HttpAdapterHost } from '@nestjs/core';
import { registerAppOptions } from './page-request.js';
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
export class PagewiseModule implements OnModuleInit {
  readonly #options: PagewiseOptions;
  readonly #adapterHost: HttpAdapterHost;

  /** Made by Nest's injector from the options and the `HttpAdapterHost`. */
  constructor(options: PagewiseOptions, adapterHost: HttpAdapterHost) {
    this.#options = options;
    this.#adapterHost = adapterHost;
  }

  /**
   * Leaves the options where every request of the app finds them (the Express app, the Fastify
   * instance): a guard that asks for the page's request before any interceptor gets them too.
   */
  onModuleInit(): void {
    const instance: unknown = this.#adapterHost.httpAdapter?.getInstance();
    if ((typeof instance === 'object' || typeof instance === 'function') && instance !== null) {
      registerAppOptions(instance, this.#options);
    }
  }

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
      { provide: APP_INTERCEPTOR, useFactory: () => new PaginationInterceptor() },
      { provide: APP_FILTER, useFactory: () => new PagewiseExceptionFilter() },
    ],
    exports: [PAGEWISE_OPTIONS],
  };
}

Module({})(PagewiseModule);
Inject(PAGEWISE_OPTIONS)(PagewiseModule, undefined, 0);
Inject(HttpAdapterHost)(PagewiseModule, undefined, 1);
