/** A base whose constructor answers the object it is given, so a subclass can stamp it. */
class Stamped {
  constructor(value: object) {
    // biome-ignore lint/correctness/noConstructorReturn: the point: fields land on `value` itself.
    return value as Stamped;
  }
}

/**
 * The exact text a driver received for a value it parsed (a `Date` from Postgres's
 * `2024-05-01 12:00:00.123456+00`), kept in a private field of the value itself: invisible to
 * `Object.keys`, symbols, JSON, `util.inspect` and deep equality, and its prototype unchanged,
 * so rows stay what users get without it. Written by `nameStatements`' type parsers, read by
 * the adapter for positions.
 */
export class ExactText extends Stamped {
  /** Recorded on a result's rows when a value of theirs could not record its text. */
  static readonly MISSING = '';
  #text: string;

  private constructor(value: object, text: string) {
    super(value);
    this.#text = text;
  }

  /** Records `text` on `value` (a parser may answer the same object twice: the last text wins). */
  static record(value: object, text: string): void {
    if (#text in value) (value as ExactText).#text = text;
    else new ExactText(value, text);
  }

  /** The text recorded on `value`, `undefined` when none was. */
  static of(value: unknown): string | undefined {
    return typeof value === 'object' && value !== null && #text in value
      ? (value as ExactText).#text
      : undefined;
  }
}
