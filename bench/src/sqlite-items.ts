import Database from 'better-sqlite3';

/**
 * An in-memory SQLite database holding the bench table as `items` (`rows` rows: 8 per second of
 * `created`, every fifth `score` NULL), with the `(created desc, id desc)` index the keyset pages
 * range on: the orm bench's SQLite table without the file.
 *
 * @example
 * const db = memoryItems(20_000);
 */
export function memoryItems(rows: number): Database.Database {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE items (id integer PRIMARY KEY, created datetime NOT NULL, score integer, title text NOT NULL);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows})
    INSERT INTO items SELECT i, strftime('%Y-%m-%dT%H:%M:%fZ', 1704067200 + ((i * 2654435761) % ${rows}) / 8, 'unixepoch'),
      CASE WHEN i % 5 = 0 THEN NULL ELSE (i * 48271) % 1000 END, 'item ' || i FROM n;
    CREATE INDEX items_created_id_desc ON items (created DESC, id DESC);`);
  return db;
}
