/**
 * Django's `patch_vary_headers`: adds header names to `Vary`, keeping the ones already there,
 * without duplicates (compared case-insensitively). A `*` anywhere makes the value `*`.
 *
 * @example
 * const headers = new Headers({ vary: 'Cookie' });
 * patchVaryHeaders(headers, ['Accept']);
 * headers.get('vary'); // 'Cookie, Accept'
 */
export function patchVaryHeaders(headers: Pick<Headers, 'get' | 'set'>, add: readonly string[]): void {
  const existing = (headers.get('vary') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const seen = new Set(existing.map((name) => name.toLowerCase()));
  const merged = [...existing];
  for (const name of add) {
    const key = name.trim().toLowerCase();
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    merged.push(name.trim());
  }
  if (merged.length === 0) return;
  headers.set('vary', seen.has('*') ? '*' : merged.join(', '));
}
