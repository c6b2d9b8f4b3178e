/**
 * DRF's `formatting.remove_trailing_string`: `content` without `trailing` at its end, unless that
 * is all it is.
 */
function removeTrailing(content: string, trailing: string): string {
  return content.endsWith(trailing) && content !== trailing ? content.slice(0, -trailing.length) : content;
}

/** Python's `str.title()`: each letter after a character without case is upper-cased, the others lower-cased. */
function pythonTitle(text: string): string {
  let out = '';
  let previousCased = false;
  for (const ch of text) {
    const lower = ch.toLowerCase();
    const upper = ch.toUpperCase();
    const cased = lower !== upper;
    out += cased ? (previousCased ? lower : upper) : ch;
    previousCased = cased;
  }
  return out;
}

/**
 * DRF's `get_view_name` words for a class (or function) name: the name without a trailing `View`,
 * then without `ViewSet`, split at its camel-case boundaries and underscores and title-cased
 * (`formatting.camelcase_to_spaces`).
 *
 * @example
 * viewNameOf('ArticleViewSet') // 'Article'
 * viewNameOf('APIRootView') // 'Api Root'
 * viewNameOf('plain_thing') // 'Plain Thing'
 */
export function viewNameOf(name: string): string {
  const stripped = removeTrailing(removeTrailing(name, 'View'), 'ViewSet');
  // Python's [a-z]/[A-Z] are ASCII here, as in DRF's pattern.
  const spaced = stripped.replace(/((?<=[a-z])[A-Z]|[A-Z](?![A-Z]|$))/g, ' $1').trim();
  return pythonTitle(spaced.split('_').join(' '));
}

/** Python's `str.splitlines()` line boundaries (its file, group and record separators included). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: \x1c-\x1e are line boundaries to Python.
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;

/** The leading run of `char` in `line`. */
function leading(line: string, char: string): number {
  let count = 0;
  while (line[count] === char) count += 1;
  return count;
}

/**
 * DRF's `formatting.dedent` for a view's description: the common indentation of the lines after
 * the first (spaces, else tabs) removed from every line, then the text trimmed, so a description
 * written as an indented template literal reads as written.
 *
 * @example
 * dedentDescription('\n    Articles of the blog.\n\n    Newest first.\n  ') // 'Articles of the blog.\n\nNewest first.'
 */
export function dedentDescription(content: string): string {
  const lines = content
    .split(LINE_BREAK)
    .slice(1)
    .filter((line) => line.trimStart() !== '');
  let text = content;
  if (lines.length > 0) {
    const spaces = Math.min(...lines.map((line) => leading(line, ' ')));
    const tabs = Math.min(...lines.map((line) => leading(line, '\t')));
    const indent = spaces > 0 ? ' '.repeat(spaces) : tabs > 0 ? '\t'.repeat(tabs) : '';
    if (indent !== '') {
      text = text
        .split('\n')
        .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
        .join('\n');
    }
  }
  return text.trim();
}
