/** Names longer than this get no suggestion: they come from code, and the distance is quadratic. */
const LONGEST = 128;

/** `name` as a person would read it: letter case, `_`, `-` and spaces aside (`created_at` is `createdAt`). */
function spelling(name: string): string {
  return name.toLowerCase().replace(/[_\-\s]/g, '');
}

/** Edits (insert, delete, change, swap two neighbours) from `a` to `b`: Damerau's optimal string alignment. */
function distance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, before[j - 2]! + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The candidate a misspelt `name` most likely meant, for a "did you mean" in an error message:
 * the nearest by edits once letter case and `_`/`-` are set aside (`createdAt` finds `created_at`),
 * within a third of the name's length (at least one edit); `undefined` when none is that near.
 *
 * @example
 * closestName('createdAt', ['id', 'created_at', 'title']) // 'created_at'
 * closestName('published', ['id', 'created_at', 'title']) // undefined
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  if (name.length > LONGEST) return undefined;
  const wanted = spelling(name);
  const most = Math.max(1, Math.floor(wanted.length / 3));
  let best: { name: string; far: number; exact: number } | undefined;
  for (const candidate of candidates) {
    if (candidate === name || candidate.length > LONGEST) continue;
    const far = distance(wanted, spelling(candidate));
    if (far > most) continue;
    const exact = distance(name, candidate);
    if (best === undefined || far < best.far || (far === best.far && exact < best.exact)) {
      best = { name: candidate, far, exact };
    }
  }
  return best?.name;
}
