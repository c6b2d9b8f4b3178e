import type { SqlPart } from './fragment.js';
import { Slot } from './slot.js';

/**
 * How a dialect writes identifiers and parameters: `"a"` and `$1` (Postgres), `"a"` and `?`
 * (SQLite), `` `a` `` and `?` (MySQL/MariaDB).
 */
export interface RenderStyle {
  readonly quote: '"' | '`';
  readonly placeholders: 'numbered' | 'positional';
}

/** The styles of the three dialects, by name. */
export const RENDER_STYLES: Readonly<Record<'postgres' | 'sqlite' | 'mysql', RenderStyle>> = Object.freeze({
  postgres: Object.freeze({ quote: '"', placeholders: 'numbered' }),
  sqlite: Object.freeze({ quote: '"', placeholders: 'positional' }),
  mysql: Object.freeze({ quote: '`', placeholders: 'positional' }),
});

/** A statement written out: its text and its parameters in order (slots left as `Slot`s). */
export interface RenderedSql {
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

/**
 * The reference lowering of a fragment into SQL text, as every ORM's lowering must write it:
 * identifiers quoted (quotes doubled), values and slots as placeholders, literals quoted. An
 * ORM node is written by `renderNode` (for tests: a column name, say). Pagewise's adapters lower
 * into their ORM's nodes instead; this is what their unit tests and the package's own compare with.
 *
 * @example
 * renderSql(sql`${identifier('created')} < ${new Slot(0)}`, RENDER_STYLES.postgres)
 * // { sql: '"created" < $1', parameters: [Slot { index: 0 }] }
 */
export function renderSql(
  part: SqlPart,
  style: RenderStyle,
  renderNode: (node: unknown) => string = () => {
    throw new TypeError('renderSql: a node part needs renderNode');
  },
): RenderedSql {
  const parameters: unknown[] = [];
  const placeholder = () => {
    return style.placeholders === 'numbered' ? `$${parameters.length}` : '?';
  };
  const write = (p: SqlPart): string => {
    if (p instanceof Slot) {
      parameters.push(p);
      return placeholder();
    }
    switch (p.kind) {
      case 'fragment': {
        let text = p.strings[0] ?? '';
        for (let i = 0; i < p.parts.length; i += 1) text += write(p.parts[i]!) + (p.strings[i + 1] ?? '');
        return text;
      }
      case 'identifier':
        return p.names
          .map(
            (name) =>
              `${style.quote}${name.replaceAll(style.quote, style.quote + style.quote)}${style.quote}`,
          )
          .join('.');
      case 'value':
        parameters.push(p.value);
        return placeholder();
      case 'literal':
        return typeof p.value === 'number' ? String(p.value) : `'${p.value.replaceAll("'", "''")}'`;
      case 'node':
        return renderNode(p.node);
    }
  };
  const text = write(part);
  return { sql: text, parameters };
}
