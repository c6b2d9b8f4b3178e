// NestJS 12 + SQLite: the same feed with @pagewise/nest on Nest's Express platform.
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type CursorPageOptions, cursorPage } from '@pagewise/core';
import { fromKysely } from '@pagewise/kysely-adapter';
import { PageUrl, PagewiseModule } from '@pagewise/nest';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';

interface Database {
  articles: { id: number; title: string; published_at: string };
}
const db = new Kysely<Database>({
  dialect: new SqliteDialect({ database: new SQLite(process.env.DATABASE_URL ?? 'articles.db') }),
});
const feed: CursorPageOptions = { pageSize: 7, ordering: '-published_at', pageSizeQueryParam: 'page_size' };

@Controller('articles')
class ArticlesController {
  @Get()
  list(@PageUrl() url: URL) {
    return cursorPage(fromKysely(db.selectFrom('articles').selectAll(), { db }), url, feed);
  }
}

@Module({
  imports: [PagewiseModule.forRoot({ allowedHosts: ['127.0.0.1'] })], // glue
  controllers: [ArticlesController],
})
class AppModule {}

const app = await NestFactory.create(AppModule, { logger: false });
await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
console.log(`${await app.getUrl()}/articles/`);
