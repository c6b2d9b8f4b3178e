import type { JsonSchema } from '../openapi/schema-types.js';

/**
 * One field as OPTIONS describes it, DRF's `SimpleMetadata.get_field_info`.
 *
 * @example
 * { type: 'string', required: true, read_only: false, label: 'Title', max_length: 100 }
 */
export interface FieldMetadata {
  /** DRF's field type: `string`, `integer`, `choice`, `email`, `nested object`, ... */
  readonly type: string;
  readonly required: boolean;
  readonly read_only: boolean;
  readonly label?: string;
  readonly help_text?: string;
  readonly min_length?: number;
  readonly max_length?: number;
  readonly min_value?: number;
  readonly max_value?: number;
  /** The field of each item of a list. */
  readonly child?: FieldMetadata;
  /** The fields of a nested object. */
  readonly children?: Readonly<Record<string, FieldMetadata>>;
  readonly choices?: ReadonlyArray<{ readonly value: unknown; readonly display_name: string }>;
}

type Schema = Readonly<Record<string, unknown>>;

const STRING_FORMATS: Readonly<Record<string, string>> = {
  email: 'email',
  uri: 'url',
  url: 'url',
  iri: 'url',
  'date-time': 'datetime',
  date: 'date',
  time: 'time',
  duration: 'duration',
  binary: 'file upload',
};

/** Deeper schemas are described as plain fields (a `$ref` cycle stops at its first repeat). */
const MAX_DEPTH = 16;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * DRF's default label: `id` is Django's primary key (`ID`); otherwise the name with `_` as spaces
 * and its first letter upper-cased (a model field's `capfirst(verbose_name)`).
 */
export function defaultLabel(name: string): string {
  if (name === 'id') return 'ID';
  const words = name.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * One description of a schema. It keeps the `$ref`s whose fields it is describing: a field that
 * refers to one of them again (a tree's `parent`, its `children`) is a recursive field, described
 * once, as its type without its fields again, so the answer stays linear in the schema (expanding
 * each reference again grows with every self-reference to the power of the depth).
 */
class Describer {
  readonly #root: Schema;
  /** The `$ref`s of the fields being described, outermost first; `'#'` is the root's. */
  readonly #expanding: string[] = ['#'];

  constructor(root: Schema) {
    this.#root = root;
  }

  #target(ref: string): unknown {
    if (ref === '#') return this.#root;
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
    const table = match ? this.#root[match[1]!] : undefined;
    return isSchema(table) ? table[decodeURIComponent(match![2]!)] : undefined;
  }

  /**
   * `$ref` to the root (`#`), `#/$defs/…` or `#/definitions/…`, else `null`; the references
   * followed are added to `refs`.
   */
  #resolve(schema: Schema, depth: number, refs: string[] = []): Schema | null {
    let current = schema;
    for (let hops = 0; typeof current.$ref === 'string'; hops += 1) {
      const target = this.#target(current.$ref);
      if (!isSchema(target) || hops > MAX_DEPTH || depth > MAX_DEPTH) return null;
      refs.push(current.$ref);
      current = {
        ...target,
        ...Object.fromEntries(Object.entries(current).filter(([key]) => key !== '$ref')),
      };
    }
    return current;
  }

  /** A nullable schema's non-null part (`type: [T, 'null']`, `anyOf: [S, { type: 'null' }]`). */
  #nonNull(schema: Schema, depth: number, refs: string[] = []): Schema {
    const resolved = this.#resolve(schema, depth, refs) ?? {};
    const type = resolved.type;
    if (Array.isArray(type)) {
      const types = type.filter((entry) => entry !== 'null');
      return { ...resolved, type: types.length === 1 ? types[0] : types };
    }
    for (const key of ['anyOf', 'oneOf'] as const) {
      const options = resolved[key];
      if (!Array.isArray(options) || this.#choices(resolved) !== null) continue;
      const rest = options.filter((entry) => !(isSchema(entry) && entry.type === 'null'));
      if (rest.length === 1 && isSchema(rest[0])) {
        const { [key]: _, ...outer } = resolved;
        return { ...this.#nonNull(rest[0], depth + 1, refs), ...outer };
      }
    }
    return resolved;
  }

  /** `enum` values, or `oneOf`/`anyOf` entries that are each a `const` (with a `title`). */
  #choices(schema: Schema): Array<{ value: unknown; display_name: string }> | null {
    if (Array.isArray(schema.enum)) {
      return schema.enum
        .filter((value) => value !== null)
        .map((value) => ({ value, display_name: String(value) }));
    }
    for (const key of ['oneOf', 'anyOf'] as const) {
      const options = schema[key];
      if (!Array.isArray(options)) continue;
      const entries = options.filter((entry) => !(isSchema(entry) && entry.type === 'null'));
      if (entries.length > 0 && entries.every((entry) => isSchema(entry) && 'const' in entry)) {
        return (entries as Schema[]).map((entry) => ({
          value: entry.const,
          display_name: typeof entry.title === 'string' ? entry.title : String(entry.const),
        }));
      }
    }
    return null;
  }

  #type(schema: Schema, choices: unknown[] | null): string {
    if (choices !== null) return 'choice';
    switch (schema.type) {
      case 'boolean':
        return 'boolean';
      case 'integer':
        return 'integer';
      case 'number':
        return schema.format === 'decimal' ? 'decimal' : 'float';
      case 'string':
        if (typeof schema.format === 'string' && STRING_FORMATS[schema.format] !== undefined) {
          return STRING_FORMATS[schema.format]!;
        }
        return 'string';
      case 'array': {
        const items = isSchema(schema.items) ? this.#resolve(schema.items, 0) : null;
        return items !== null && schema.uniqueItems === true && this.#choices(items) !== null
          ? 'multiple choice'
          : 'list';
      }
      case 'object':
        return 'nested object';
      default:
        return 'field';
    }
  }

  /** DRF's `get_field_info` of one schema; `name` null for a list's item (no label). */
  field(
    raw: Schema,
    name: string | null,
    required: boolean,
    readOnly: boolean,
    depth: number,
  ): FieldMetadata {
    const refs: string[] = [];
    const schema = depth > MAX_DEPTH ? {} : this.#nonNull(raw, depth, refs);
    const recursive = refs.some((ref) => this.#expanding.includes(ref));
    const choices = this.#choices(schema);
    const type = this.#type(schema, choices);
    const info: Record<string, unknown> = { type, required, read_only: readOnly };
    const label = typeof schema.title === 'string' ? schema.title : name === null ? null : defaultLabel(name);
    if (label !== null && label !== '') info.label = label;
    if (typeof schema.description === 'string' && schema.description !== '')
      info.help_text = schema.description;
    if (typeof schema.minLength === 'number') info.min_length = schema.minLength;
    if (typeof schema.maxLength === 'number') info.max_length = schema.maxLength;
    // A JavaScript integer's own range (Zod's `int()`) says nothing DRF's IntegerField would.
    if (typeof schema.minimum === 'number' && schema.minimum !== Number.MIN_SAFE_INTEGER) {
      info.min_value = schema.minimum;
    }
    if (typeof schema.maximum === 'number' && schema.maximum !== Number.MAX_SAFE_INTEGER) {
      info.max_value = schema.maximum;
    }
    if (!recursive) {
      this.#expanding.push(...refs);
      if (type === 'list' && isSchema(schema.items)) {
        info.child = this.field(schema.items, null, true, false, depth + 1);
      } else if (type === 'nested object' && isSchema(schema.properties)) {
        info.children = this.fields(schema, null, depth + 1);
      } else if (type === 'nested object' && isSchema(schema.additionalProperties)) {
        info.child = this.field(schema.additionalProperties, null, true, false, depth + 1);
      }
      this.#expanding.length -= refs.length;
    }
    const listed =
      type === 'multiple choice' && isSchema(schema.items)
        ? this.#choices(this.#resolve(schema.items, depth) ?? {})
        : choices;
    if (!readOnly && listed !== null) info.choices = listed;
    return info as unknown as FieldMetadata;
  }

  /**
   * DRF's `get_serializer_info`: every property of an object schema, in order. With
   * `writableFields`, the others are read-only and those are required (the default validation
   * requires each); without, `readOnly` and the schema's `required` say so.
   */
  fields(
    object: Schema,
    writableFields: readonly string[] | null,
    depth: number,
  ): Record<string, FieldMetadata> {
    const schema = this.#nonNull(object, depth);
    const properties = isSchema(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const info: Record<string, FieldMetadata> = {};
    for (const [name, property] of Object.entries(properties)) {
      if (!isSchema(property)) continue;
      const readOnly =
        property.readOnly === true || (writableFields !== null && !writableFields.includes(name));
      const isRequired = !readOnly && (writableFields !== null || required.has(name));
      info[name] = this.field(property, name, isRequired, readOnly, depth);
    }
    // Writable fields the schema does not show are still fields a write takes.
    for (const name of writableFields ?? []) {
      info[name] ??= { type: 'field', required: true, read_only: false, label: defaultLabel(name) };
    }
    return info;
  }
}

/**
 * What OPTIONS lists for a write (DRF's `get_serializer_info`): each property of the item schema
 * (`schema` as JSON Schema, `null` when the view has none) with its DRF field metadata, read-only
 * unless it is one of `writableFields`.
 *
 * @example
 * serializerInfo({ type: 'object', properties: { title: { type: 'string', maxLength: 100 } } }, ['title'])
 * // { title: { type: 'string', required: true, read_only: false, label: 'Title', max_length: 100 } }
 */
export function serializerInfo(
  schema: JsonSchema | null,
  writableFields: readonly string[] | null,
): Record<string, FieldMetadata> {
  const root = schema ?? {};
  return new Describer(root).fields(root, writableFields, 0);
}
