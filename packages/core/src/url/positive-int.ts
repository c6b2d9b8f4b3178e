/**
 * Python's `int(text)` for base-10 strings, exactly: surrounding whitespace, a sign, leading
 * zeros, single underscores between digits and any Unicode decimal digits are accepted
 * (`' +1_0 '`, `'１０'`), up to Python's 4,300 digits. Returns `null` for anything `int()` would
 * reject.
 *
 * @example
 * parsePythonBigInt(' 99999999999999999999 ') // 99999999999999999999n
 */
export function parsePythonBigInt(text: string): bigint | null {
  const parsed = pythonDigits(text);
  if (parsed === null) return null;
  const value = BigInt(parsed.digits);
  return parsed.negative ? -value : value;
}

/**
 * `parsePythonBigInt` as a number. Values beyond `Number.MAX_SAFE_INTEGER` are returned as that
 * bound (with the sign), which every caller treats as "too large" anyway.
 *
 * @example
 * parsePythonInt(' +1_0 ') // 10
 */
export function parsePythonInt(text: string): number | null {
  const parsed = pythonDigits(text);
  if (parsed === null) return null;
  const sign = parsed.negative ? -1 : 1;
  const digits = parsed.digits.replace(/^0+(?=\d)/, '');
  if (digits.length > 16 || Number(digits) > Number.MAX_SAFE_INTEGER) return sign * Number.MAX_SAFE_INTEGER;
  const value = Number(digits);
  return value === 0 ? 0 : sign * value;
}

/**
 * Python refuses `int()` of more than 4,300 digits (CPython 3.11+, `sys.int_info`'s
 * `str_digits_check_threshold`), so DRF answers such a value as an invalid one; the cap also
 * bounds the work one value can cost.
 */
const MAX_DIGITS = 4300;

/** The sign and ASCII digits of what Python's `int(text)` accepts, or `null`. Linear in the text. */
function pythonDigits(text: string): { negative: boolean; digits: string } | null {
  const stripped = stripPython(text);
  // A sign, n digits of up to two UTF-16 units each (astral ones such as U+1D7CE) and at most n - 1
  // underscores fit in 3n units: longer text holds more digits than the cap, so the pattern never
  // walks (and stacks backtrack points for) a megabyte of digits.
  if (stripped.length > 3 * MAX_DIGITS) return null;
  const match = /^([+-]?)(\p{Nd}+(?:_\p{Nd}+)*)$/u.exec(stripped);
  if (!match) return null;
  let digits = '';
  let count = 0;
  for (const ch of match[2]!) {
    if (ch === '_') continue;
    count += 1;
    if (count > MAX_DIGITS) return null;
    digits += String(digitValue(ch));
  }
  return { negative: match[1] === '-', digits };
}

/**
 * What the trim strips: JavaScript's `\s` (Unicode White_Space, line terminators and U+FEFF) plus
 * the information separators U+001C..U+001F and U+0085, which Python's str.strip() also strips.
 */
function isStripped(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d) || code >= 0x1c;
  if (code < 0x85) return false;
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * `str.strip()` by scanning from both ends. A regex `\s+$` retries from every whitespace run, which
 * is quadratic on `x` + many spaces + `x` (64k characters took 5 s).
 */
function stripPython(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isStripped(text.charCodeAt(start))) start += 1;
  while (end > start && isStripped(text.charCodeAt(end - 1))) end -= 1;
  return text.slice(start, end);
}

/** Every run of Unicode decimal digits is a complete 0..9 sequence, so the value is the index in its run. */
function digitValue(ch: string): number {
  let cp = ch.codePointAt(0)!;
  if (cp >= 0x30 && cp <= 0x39) return cp - 0x30;
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
