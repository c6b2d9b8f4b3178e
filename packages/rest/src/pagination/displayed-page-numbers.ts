import type { PageLink } from '../html/pagination-html.js';

export type { PageLink };

/**
 * DRF's `_get_displayed_page_numbers`: the page numbers a numbered control shows, with `null`
 * for a break. One neighbour each side of the current page, two at the edges, and a gap of a
 * single page is never shown as a break.
 *
 * @example
 * getDisplayedPageNumbers(10, 20) // [1, null, 9, 10, 11, null, 20]
 */
export function getDisplayedPageNumbers(current: number, final: number): Array<number | null> {
  if (!(current >= 1 && current <= final)) {
    throw new RangeError(`current page ${current} is outside 1..${final}`);
  }
  if (final <= 5) return Array.from({ length: final }, (_, i) => i + 1);
  const shown = new Set([1, current - 1, current, current + 1, final]);
  if (current <= 4) {
    shown.add(2);
    shown.add(3);
  }
  if (current >= final - 3) {
    shown.add(final - 1);
    shown.add(final - 2);
  }
  const numbers: Array<number | null> = [...shown].filter((n) => n >= 1 && n <= final).sort((a, b) => a - b);
  if (current > 4) numbers.splice(1, 0, null);
  if (current < final - 3) numbers.splice(numbers.length - 1, 0, null);
  return numbers;
}

/** Turns displayed numbers into `PageLink`s, asking `urlFor` for each page's URL. */
export function getPageLinks(current: number, final: number, urlFor: (page: number) => string): PageLink[] {
  return getDisplayedPageNumbers(current, final).map((number) =>
    number === null
      ? { url: null, number: null, isActive: false, isBreak: true }
      : { url: urlFor(number), number, isActive: number === current, isBreak: false },
  );
}
