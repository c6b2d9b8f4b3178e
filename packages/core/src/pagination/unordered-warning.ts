import { emitWarning, type WarningHook } from '../warnings.js';
import type { OrderedQuery } from './ordered-query.js';

/**
 * Emitted through the warning hook (by default `process.emitWarning`) when an offset-based
 * style pages a query without a defined order: pages may then overlap or skip rows between
 * requests.
 */
export class UnorderedObjectListWarning extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnorderedObjectListWarning';
  }
}

/** Warns through `warn`, as Django's paginator does, when `query` has no defined order. */
export function warnIfUnordered(query: OrderedQuery<unknown>, warn: WarningHook = emitWarning): void {
  if (!query.ordered) {
    warn(
      new UnorderedObjectListWarning(
        `Pagination may yield inconsistent results with an unordered object_list: ${query.description}.`,
      ),
    );
  }
}
