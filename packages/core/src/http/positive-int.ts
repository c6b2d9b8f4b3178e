/**
 * Python's `int(text)` for base-10 strings, exactly: surrounding whitespace, a sign, leading
 * zeros, single underscores between digits and any Unicode decimal digits are accepted
 * (`' +1_0 '`, `'１０'`). Returns `null` for anything `int()` would reject.
 *
 * @example
 * parsePythonBigInt(' 99999999999999999999 ') // 99999999999999999999n
 */
export function parsePythonBigInt(text: string): bigint | null {
  // Python's str.strip() also strips the information separators U+001C..U+001F.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: those separators are the point
  const trimmed = text.replace(/^[\s\u001c-\u001f\u0085]+|[\s\u001c-\u001f\u0085]+$/gu, '');
  const match = /^([+-]?)(\p{Nd}+(?:_\p{Nd}+)*)$/u.exec(trimmed);
  if (!match) return null;
  let value = 0n;
  for (const ch of match[2]!.replaceAll('_', '')) value = value * 10n + BigInt(digitValue(ch));
  return match[1] === '-' ? -value : value;
}

/**
 * `parsePythonBigInt` as a number. Values beyond `Number.MAX_SAFE_INTEGER` are returned as that
 * bound (with the sign), which every caller treats as "too large" anyway.
 */
export function parsePythonInt(text: string): number | null {
  const value = parsePythonBigInt(text);
  if (value === null) return null;
  const max = BigInt(Number.MAX_SAFE_INTEGER);
  if (value > max) return Number.MAX_SAFE_INTEGER;
  if (value < -max) return -Number.MAX_SAFE_INTEGER;
  return Number(value);
}

/** Every run of Unicode decimal digits is a complete 0..9 sequence, so the value is the index in its run. */
function digitValue(ch: string): number {
  let cp = ch.codePointAt(0)!;
  let index = 0;
  while (/\p{Nd}/u.test(String.fromCodePoint(cp - 1))) {
    cp -= 1;
    index += 1;
  }
  return index % 10;
}

/**
 * DRF's `_positive_int`: a non-negative integer (positive when `strict`), clamped to `cutoff` when
 * that is set and non-zero. Throws `RangeError` when the text is rejected.
 *
 * @example
 * positiveInt(' 10 ', { strict: true, cutoff: 5 }) // 5
 */
export function positiveInt(
  text: string,
  options: { strict?: boolean; cutoff?: number | null } = {},
): number {
  const value = parsePythonInt(text);
  if (value === null || value < 0 || (options.strict && value === 0)) {
    throw new RangeError(
      `Not a ${options.strict ? 'positive' : 'non-negative'} integer: ${JSON.stringify(text)}`,
    );
  }
  return options.cutoff ? Math.min(value, options.cutoff) : value;
}

/** `positiveInt` that answers `fallback` instead of throwing. */
export function positiveIntOr<T>(
  text: string | null,
  fallback: T,
  options: { strict?: boolean; cutoff?: number | null } = {},
): number | T {
  if (text === null) return fallback;
  try {
    return positiveInt(text, options);
  } catch {
    return fallback;
  }
}
