import type { IndexColumnRow } from '../dialect/catalog-rows.js';

/**
 * The index whose leading columns are `fixed` (columns a WHERE fixes by equality, in any order)
 * then `columns`, each of those sorted as `descending` says or each the other way (the engine
 * reads an index backwards), preferring the first: the index a keyset statement over those
 * columns ranges on. Indexes the server ignores (MariaDB `IGNORED`, MySQL invisible), prefix
 * parts and unsorted ones never serve. `undefined` when none is there.
 *
 * @example
 * orderingIndex(rows, ['score', 'id'], [true, true]) // 'items_score_id_desc'
 * orderingIndex(rows, ['score', 'id'], [true, true], ['tenant']) // 'items_tenant_score_id'
 */
export function orderingIndex(
  rows: readonly IndexColumnRow[],
  columns: readonly string[],
  descending: readonly boolean[],
  fixed: readonly string[] = [],
): string | undefined {
  const lower = (column: string | null) => column?.toLowerCase();
  const leading = new Set(fixed.map(lower));
  const byIndex = new Map<string, IndexColumnRow[]>();
  for (const row of rows) {
    const list = byIndex.get(row.INDEX_NAME) ?? [];
    list.push(row);
    byIndex.set(row.INDEX_NAME, list);
  }
  let reversed: string | undefined;
  for (const [name, list] of byIndex) {
    if (list.some((r) => r.IGNORED === 'YES' || r.IS_VISIBLE === 'NO')) continue;
    const parts = list.sort((a, b) => Number(a.SEQ_IN_INDEX) - Number(b.SEQ_IN_INDEX));
    const skip = leading.size;
    if (parts.length < skip + columns.length) continue;
    const head = parts.slice(0, skip);
    const first = new Set(head.map((part) => lower(part.COLUMN_NAME)));
    if (first.size !== skip || [...leading].some((column) => !first.has(column))) continue;
    if (head.some((part) => part.SUB_PART !== null)) continue;
    let same = true;
    let opposite = true;
    for (let k = 0; k < columns.length && (same || opposite); k += 1) {
      const part = parts[skip + k]!;
      const served =
        Number(part.SEQ_IN_INDEX) === skip + k + 1 &&
        lower(part.COLUMN_NAME) === lower(columns[k]!) &&
        part.SUB_PART === null &&
        (part.COLLATION === 'A' || part.COLLATION === 'D');
      const down = part.COLLATION === 'D';
      same &&= served && down === descending[k];
      opposite &&= served && down !== descending[k];
    }
    if (same) return name;
    if (opposite) reversed ??= name;
  }
  return reversed;
}
