import {
  CamelCasePlugin,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  WithSchemaPlugin,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { fromKysely } from './from-kysely.js';
import { SharedState } from './shared-state.js';
import { StatementCache } from './statement-cache.js';

// biome-ignore lint/suspicious/noExplicitAny: no schema: only statements are compiled.
type AnyDb = Kysely<any>;

/** A Postgres Kysely that runs nothing (every statement answers no rows), `sql` logs each one. */
function coldDb(sql: string[]): AnyDb {
  return new Kysely({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    log: (event) => void (event.level === 'query' && sql.push(event.query.sql)),
  });
}

class AcronymCasePlugin extends CamelCasePlugin {
  protected override snakeCase(str: string): string {
    return super.snakeCase(str.replace(/ID$/, 'Id'));
  }
}

describe('SharedState.treeField', () => {
  const shared = (db: AnyDb) =>
    new SharedState(db.selectFrom('blogPosts').selectAll(), {}, new StatementCache(), true);

  it("renames a field as the builder's plugins rename its own references", () => {
    const camel = shared(coldDb([]).withPlugin(new CamelCasePlugin()));
    expect(camel.treeField('createdAt')).toBe('created_at');
    expect(camel.treeField('blogPosts.createdAt')).toBe('blog_posts.created_at');
    expect(camel.treeField('created_at')).toBe('created_at');
    expect(
      shared(coldDb([]).withPlugin(new CamelCasePlugin({ upperCase: true }))).treeField('createdAt'),
    ).toBe('CREATED_AT');
    expect(shared(coldDb([]).withPlugin(new AcronymCasePlugin())).treeField('authorID')).toBe('author_id');
    // A schema the plugin adds to tables stays out of a field that names none.
    const schema = shared(coldDb([]).withPlugin(new WithSchemaPlugin('blog')));
    expect(schema.treeField('blogPosts.id')).toBe('blogPosts.id');
  });

  it('answers the field itself without a renaming plugin', () => {
    const plain = new SharedState(coldDb([]).selectFrom('t').selectAll(), {}, new StatementCache(), false);
    expect(plain.treeField('createdAt')).toBe('createdAt');
  });
});

describe('fromKysely under CamelCasePlugin', () => {
  it('orders by the renamed column and reads positions from a private column no plugin renames', async () => {
    const sql: string[] = [];
    const db = coldDb(sql).withPlugin(new CamelCasePlugin());
    const query = fromKysely(db.selectFrom('blogPosts').select(['id', 'titleText']), {
      db,
      columns: { createdAt: 'string', id: 'integer' },
    });
    await query.fetch({
      order: [
        { field: 'createdAt', direction: 'desc', nulls: 'first' },
        { field: 'id', direction: 'desc', nulls: 'first', unique: true },
      ],
      after: ['2024-01-01', 7],
      offset: 0,
      limit: 3,
    });
    expect(sql.at(-1)).toBe(
      'select "id", "title_text", "created_at" as "pagewise0", "id" as "pagewise1" from "blog_posts" ' +
        'where "created_at" <= $1 and ("created_at", "id") < ($2, $3) order by "created_at" desc, "id" desc limit 3',
    );
  });
});
