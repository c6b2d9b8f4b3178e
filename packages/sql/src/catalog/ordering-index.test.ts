import { describe, expect, it } from 'vitest';
import type { IndexColumnRow } from '../dialect/catalog-rows.js';
import { orderingIndex } from './ordering-index.js';

/** The rows `information_schema.statistics` gives for an index over `parts` (`'score D'`). */
function index(name: string, parts: string[], extra: Partial<IndexColumnRow> = {}): IndexColumnRow[] {
  return parts.map((part, i) => {
    const [column, collation] = part.split(' ');
    return {
      INDEX_NAME: name,
      SEQ_IN_INDEX: i + 1,
      COLUMN_NAME: column!,
      COLLATION: collation ?? 'A',
      SUB_PART: null,
      ...extra,
    };
  });
}

describe('orderingIndex', () => {
  const columns = ['score', 'id'];
  const desc = [true, true];

  it('finds the index whose leading columns are the ordering, preferring its directions', () => {
    const rows = [
      ...index('PRIMARY', ['id']),
      ...index('score_id', ['score', 'id']),
      ...index('score_id_desc', ['score D', 'id D', 'title']),
    ];
    expect(orderingIndex(rows, columns, desc)).toBe('score_id_desc');
    // Read backwards, an index of the opposite directions serves too.
    expect(orderingIndex(rows.slice(0, 3), columns, desc)).toBe('score_id');
    expect(orderingIndex(rows, ['SCORE', 'Id'], [false, false])).toBe('score_id');
  });

  it('with columns a WHERE fixes, the index that begins with them, in any order, then the ordering', () => {
    const rows = [
      ...index('score_id', ['score D', 'id D']),
      ...index('tenant_score_id', ['tenant', 'score D', 'id D']),
      ...index('gone_tenant_score_id', ['gone', 'tenant', 'score D', 'id D']),
      ...index('tenant_prefix', ['name', 'score D', 'id D'], { SUB_PART: 4 }),
    ];
    expect(orderingIndex(rows, columns, desc, ['tenant'])).toBe('tenant_score_id');
    expect(orderingIndex(rows, columns, desc, ['TENANT', 'gone'])).toBe('gone_tenant_score_id');
    // Every fixed column, each once, before the ordering; never a prefix part.
    expect(orderingIndex(rows, columns, desc, ['tenant', 'kind'])).toBeUndefined();
    expect(orderingIndex(rows, columns, desc, ['name'])).toBeUndefined();
    expect(orderingIndex(rows, columns, desc)).toBe('score_id');
  });

  it('never names an index that cannot range over the ordering', () => {
    // Mixed against the ordering, the columns in another order, too few columns, a prefix part,
    // an ignored (MariaDB) or invisible (MySQL) index, a column that is an expression.
    const rows = [
      ...index('mixed', ['score D', 'id']),
      ...index('swapped', ['id D', 'score D']),
      ...index('short', ['score D']),
      ...index('prefix', ['score D', 'id D'], { SUB_PART: 8 }),
      ...index('ignored', ['score D', 'id D'], { IGNORED: 'YES' }),
      ...index('invisible', ['score D', 'id D'], { IS_VISIBLE: 'NO' }),
      ...index('functional', ['score D', 'id D'], { COLUMN_NAME: null }),
    ];
    expect(orderingIndex(rows, columns, desc)).toBeUndefined();
    expect(orderingIndex([], columns, desc)).toBeUndefined();
  });
});
