/**
 * The number written by the decimal digits of `text` from `start` to `end`, or -1 if one is not a
 * digit (or past the end of `text`): the date and time readers' one field reader.
 *
 * @example
 * digitsAt('2024-05-01', 5, 7) // 5
 */
export function digitsAt(text: string, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i += 1) {
    const digit = text.charCodeAt(i) - 48;
    // NaN past the end of `text` is no digit either.
    if (!(digit >= 0 && digit <= 9)) return -1;
    value = value * 10 + digit;
  }
  return value;
}
