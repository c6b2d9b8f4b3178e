import { type DeferredJoinClauses, selectionTextComputes } from '@pagewise/sql';
import { is, SQL } from 'drizzle-orm';
import { atoms, type DialectLike, orderedFields, queryClauses, type SelectConfig } from './builder-config.js';

/**
 * What the select holds that a deferred join cannot serve (`DeferredJoinClauses`): its clauses,
 * and the aggregates and window functions written in its selection's `sql` (Drizzle's `count()`
 * and `sql\`rank() over (...)\`` alike), a subquery's excepted.
 */
export function deferredClauses(config: SelectConfig, dialect: DialectLike): DeferredJoinClauses {
  const found = { windowFunction: false, aggregate: false };
  for (const { field } of orderedFields(config.fields)) {
    const expression = is(field, SQL.Aliased) ? field.getSQL() : field;
    if (!is(expression, SQL)) continue;
    const text = atoms(expression.queryChunks)
      .map((atom) => ('text' in atom ? atom.text : ' '))
      .join('');
    const computes = selectionTextComputes(text);
    found.windowFunction ||= computes.windowFunction;
    found.aggregate ||= computes.aggregate;
  }
  return { ...queryClauses(config, dialect), ...found };
}
