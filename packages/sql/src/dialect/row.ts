/**
 * A row as the driver answers it: the query's own columns, and the private ones (`isPrivateColumn`)
 * the adapter selected beside them until they are stripped.
 */
export type Row = Record<string, unknown>;
