import {
  type ASTVisitor,
  type FieldNode,
  GraphQLError,
  type GraphQLField,
  type GraphQLNamedType,
  getNamedType,
  getNullableType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  Lexer,
  type OperationDefinitionNode,
  SchemaMetaFieldDef,
  type SelectionSetNode,
  Source,
  TokenKind,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  type ValidationContext,
  type ValidationRule,
  type ValueNode,
} from 'graphql';

/**
 * How much one GraphQL request may ask of the server. Each is checked before any resolver runs,
 * and a request over any of them is refused whole with a `QUERY_LIMIT_EXCEEDED` error.
 *
 * @example
 * graphqlHandler(schema, { limits: { maxCost: 5000 } })
 */
export interface GraphqlLimits {
  /**
   * Tokens the document may hold (names, punctuation, values; comments are free). Bounds the work
   * of parsing and validating it: graphql-js compares same-named fields pairwise, so a long
   * document of repeated fields costs the server far more than it costs the client to send.
   * @default 1000
   */
  readonly maxTokens: number;
  /**
   * Fields at the root of the operation, aliases and fragments included: each root `articles` is
   * one statement.
   * @default 10
   */
  readonly maxRootFields: number;
  /** Levels of nested fields, introspection's included. @default 15 */
  readonly maxDepth: number;
  /**
   * Values the answer may hold, as written: every field selected counts 1, and each list counts
   * its fields as many times as its connection's `first` or `last` asks (the field's default page
   * size when neither is given, at most its maximum). Lists outside a connection (introspection's)
   * count once.
   * @default 10000
   */
  readonly maxCost: number;
}

/** The limits `/graphql` applies unless told otherwise. */
export const DEFAULT_GRAPHQL_LIMITS: GraphqlLimits = Object.freeze({
  maxTokens: 1000,
  maxRootFields: 10,
  maxDepth: 15,
  maxCost: 10_000,
});

/**
 * How a connection field reads `first`/`last`, declared on the field as
 * `extensions: { pageSizes: { defaultPageSize, maxPageSize } }` so the cost counts its lists as
 * the resolver will fill them.
 */
export interface ConnectionPageSizes {
  /** Edges when neither `first` nor `last` is given. */
  readonly defaultPageSize: number;
  /** Larger counts are clamped to it. */
  readonly maxPageSize: number;
}

/** What a field without `extensions.pageSizes` but with `first`/`last` is assumed to do. */
const ASSUMED_PAGE_SIZES: ConnectionPageSizes = { defaultPageSize: 20, maxPageSize: 100 };

/** `extensions.code` of every refusal by a limit. */
export const QUERY_LIMIT_EXCEEDED = 'QUERY_LIMIT_EXCEEDED';

type LimitName = 'tokens' | 'rootFields' | 'depth' | 'cost';

function limitError(
  message: string,
  limit: LimitName,
  maximum: number,
  actual: number | null,
  node?: OperationDefinitionNode,
): GraphQLError {
  return new GraphQLError(message, {
    ...(node ? { nodes: node } : {}),
    extensions: { code: QUERY_LIMIT_EXCEEDED, limit, maximum, ...(actual === null ? {} : { actual }) },
  });
}

/**
 * Counts the tokens of `query` up to `maxTokens + 1` and refuses a longer document before it is
 * parsed. A lexing error (an unterminated string) is the `GraphQLError` graphql-js throws.
 *
 * @example
 * tokenLimitError('{ articles { edges { cursor } } }', 1000) // null (9 tokens)
 */
export function tokenLimitError(query: string, maxTokens: number): GraphQLError | null {
  const lexer = new Lexer(new Source(query));
  for (let count = 0; lexer.advance().kind !== TokenKind.EOF; count += 1) {
    if (count === maxTokens) {
      return limitError(
        `The document has more than ${maxTokens} tokens; at most ${maxTokens} are accepted.`,
        'tokens',
        maxTokens,
        null,
      );
    }
  }
  return null;
}

interface Measure {
  readonly depth: number;
  readonly cost: number;
}

const NOTHING: Measure = { depth: 0, cost: 0 };

/** A number for a message: exact while it is one, else in exponent form. */
const shown = (n: number) => (Number.isSafeInteger(n) ? String(n) : n.toExponential(2));

/**
 * Measures operations of one document as written: fragments are expanded (each spread counts
 * every time, though the answer merges them, so this is an upper bound), each fragment measured
 * once per list size, and a fragment that spreads itself counts nothing (validation refuses it).
 */
class OperationMeasurer {
  readonly #context: ValidationContext;
  readonly #variables: Readonly<Record<string, unknown>>;
  readonly #fragments = new Map<string, Measure>();
  readonly #rootFragments = new Map<string, number>();
  readonly #visiting = new Set<string>();
  #defaults = new Map<string, ValueNode>();

  constructor(context: ValidationContext, variables: Readonly<Record<string, unknown>>) {
    this.#context = context;
    this.#variables = variables;
  }

  /** Starts on `operation`: its variables' default values are read from here on. */
  operation(operation: OperationDefinitionNode): this {
    this.#defaults = new Map(
      (operation.variableDefinitions ?? []).flatMap((definition) =>
        definition.defaultValue ? [[definition.variable.name.value, definition.defaultValue] as const] : [],
      ),
    );
    this.#fragments.clear();
    return this;
  }

  /** Fields at the root of `selectionSet`, through fragments and inline fragments. */
  rootFields(selectionSet: SelectionSetNode): number {
    let fields = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) fields += 1;
      else if (selection.kind === Kind.INLINE_FRAGMENT) fields += this.rootFields(selection.selectionSet);
      else {
        const name = selection.name.value;
        const fragment = this.#context.getFragment(name);
        if (!fragment || this.#visiting.has(name)) continue;
        let counted = this.#rootFragments.get(name);
        if (counted === undefined) {
          this.#visiting.add(name);
          counted = this.rootFields(fragment.selectionSet);
          this.#visiting.delete(name);
          this.#rootFragments.set(name, counted);
        }
        fields += counted;
      }
    }
    return fields;
  }

  /** Depth and cost of `selectionSet` on `parent`, its lists `listSize` items long. */
  measure(selectionSet: SelectionSetNode, parent: GraphQLNamedType | undefined, listSize: number): Measure {
    let depth = 0;
    let cost = 0;
    const add = (measure: Measure) => {
      depth = Math.max(depth, measure.depth);
      cost += measure.cost;
    };
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) add(this.#field(selection, parent, listSize));
      else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition
          ? this.#context.getSchema().getType(selection.typeCondition.name.value)
          : parent;
        add(this.measure(selection.selectionSet, condition ?? undefined, listSize));
      } else add(this.#fragment(selection.name.value, listSize));
    }
    return { depth, cost };
  }

  #fragment(name: string, listSize: number): Measure {
    const key = `${name}:${listSize}`;
    const known = this.#fragments.get(key);
    if (known) return known;
    const fragment = this.#context.getFragment(name);
    if (!fragment || this.#visiting.has(name)) return NOTHING;
    this.#visiting.add(name);
    const type = this.#context.getSchema().getType(fragment.typeCondition.name.value);
    const measure = this.measure(fragment.selectionSet, type ?? undefined, listSize);
    this.#visiting.delete(name);
    this.#fragments.set(key, measure);
    return measure;
  }

  #field(node: FieldNode, parent: GraphQLNamedType | undefined, listSize: number): Measure {
    const definition = fieldDefinition(this.#context, parent, node.name.value);
    const pageSizes = definition && connectionPageSizes(definition);
    const inner = pageSizes ? this.#pageSize(node, pageSizes) : listSize;
    const sub = node.selectionSet
      ? this.measure(node.selectionSet, definition ? getNamedType(definition.type) : undefined, inner)
      : NOTHING;
    const repeat = definition && isListType(getNullableType(definition.type)) ? listSize : 1;
    return { depth: 1 + sub.depth, cost: 1 + repeat * sub.cost };
  }

  /** The edges a connection field will return: `first` or `last`, clamped, or the default. */
  #pageSize(node: FieldNode, { defaultPageSize, maxPageSize }: ConnectionPageSizes): number {
    const counts = ['first', 'last'].map((name) => this.#count(node, name)).filter((count) => count !== null);
    if (counts.length === 0) return defaultPageSize;
    // A count that is not an integer is refused later; until then it is the most it could be.
    return Math.max(
      ...counts.map((count) =>
        Number.isInteger(count) ? Math.min(Math.max(count, 0), maxPageSize) : maxPageSize,
      ),
    );
  }

  /** The argument's value (`NaN` when it is no integer), `null` when absent or null. */
  #count(node: FieldNode, name: string): number | null {
    const argument = node.arguments?.find((a) => a.name.value === name);
    return argument ? this.#value(argument.value) : null;
  }

  #value(value: ValueNode): number | null {
    if (value.kind === Kind.NULL) return null;
    if (value.kind === Kind.INT) return Number(value.value);
    if (value.kind !== Kind.VARIABLE) return Number.NaN;
    const name = value.name.value;
    if (Object.hasOwn(this.#variables, name)) {
      const given = this.#variables[name];
      if (given === null || given === undefined) return null;
      return typeof given === 'number' && Number.isInteger(given) ? given : Number.NaN;
    }
    const fallback = this.#defaults.get(name);
    return fallback ? this.#value(fallback) : null;
  }
}

function fieldDefinition(
  context: ValidationContext,
  parent: GraphQLNamedType | undefined,
  name: string,
): GraphQLField<unknown, unknown> | undefined {
  if (name === TypeNameMetaFieldDef.name) return TypeNameMetaFieldDef;
  const schema = context.getSchema();
  if (parent === schema.getQueryType()) {
    if (name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef;
    if (name === TypeMetaFieldDef.name) return TypeMetaFieldDef;
  }
  return parent && (isObjectType(parent) || isInterfaceType(parent)) ? parent.getFields()[name] : undefined;
}

/** Page sizes of a connection field: one with a `first` or `last` argument. */
function connectionPageSizes(field: GraphQLField<unknown, unknown>): ConnectionPageSizes | null {
  if (!field.args.some((arg) => arg.name === 'first' || arg.name === 'last')) return null;
  const declared = (field.extensions as { pageSizes?: ConnectionPageSizes } | undefined)?.pageSizes;
  return declared ?? ASSUMED_PAGE_SIZES;
}

/** Options every limit rule reads besides its maximum. */
export interface LimitRuleOptions {
  /** The request's variables: a count given as `$first` is measured at its value. @default {} */
  readonly variables?: Readonly<Record<string, unknown>> | null;
  /** Only the operation that will run is measured. @default null (every operation) */
  readonly operationName?: string | null;
}

/** Runs `check` on each operation the request may run, with a measurer for it. */
function operationRule(
  { variables, operationName = null }: LimitRuleOptions,
  check: (
    operation: OperationDefinitionNode,
    measurer: OperationMeasurer,
    context: ValidationContext,
  ) => void,
): ValidationRule {
  return (context): ASTVisitor => {
    const measurer = new OperationMeasurer(context, variables ?? {});
    return {
      OperationDefinition(operation) {
        if (operationName === null || operation.name?.value === operationName)
          check(operation, measurer.operation(operation), context);
        return false;
      },
    };
  };
}

/**
 * At most `maximum` fields at an operation's root, counted through fragments (every alias is one).
 *
 * @example
 * validate(schema, parse('{ a: articles { edges { cursor } } b: articles { edges { cursor } } }'), [maxRootFieldsRule(1)])
 * // [GraphQLError: The operation selects 2 root fields; at most 1 are accepted (aliases count).]
 */
export function maxRootFieldsRule(maximum: number, options: LimitRuleOptions = {}): ValidationRule {
  return operationRule(options, (operation, measurer, context) => {
    const fields = measurer.rootFields(operation.selectionSet);
    if (fields > maximum) {
      context.reportError(
        limitError(
          `The operation selects ${fields} root fields; at most ${maximum} are accepted (aliases count).`,
          'rootFields',
          maximum,
          fields,
          operation,
        ),
      );
    }
  });
}

/**
 * At most `maximum` levels of nested fields, counted through fragments.
 *
 * @example
 * validate(schema, parse('{ articles { edges { node { id } } } }'), [maxDepthRule(3)])
 * // [GraphQLError: The operation is 4 levels deep; at most 3 are accepted.]
 */
export function maxDepthRule(maximum: number, options: LimitRuleOptions = {}): ValidationRule {
  return operationRule(options, (operation, measurer, context) => {
    const { depth } = measurer.measure(
      operation.selectionSet,
      context.getSchema().getQueryType() ?? undefined,
      1,
    );
    if (depth > maximum) {
      context.reportError(
        limitError(
          `The operation is ${depth} levels deep; at most ${maximum} are accepted.`,
          'depth',
          maximum,
          depth,
          operation,
        ),
      );
    }
  });
}

/**
 * At most `maximum` values in the answer, estimated as written (see `GraphqlLimits.maxCost`):
 * `articles(first: 100) { edges { node { id title } } }` costs 1 + 1 + 100 x (1 + 2) = 302.
 *
 * @example
 * validate(schema, parse('{ articles(first: 100) { edges { node { id title } } } }'), [maxCostRule(300)])
 * // [GraphQLError: The operation may return about 302 values; at most 300 are accepted (…).]
 */
export function maxCostRule(maximum: number, options: LimitRuleOptions = {}): ValidationRule {
  return operationRule(options, (operation, measurer, context) => {
    const { cost } = measurer.measure(
      operation.selectionSet,
      context.getSchema().getQueryType() ?? undefined,
      1,
    );
    if (cost > maximum) {
      context.reportError(
        limitError(
          `The operation may return about ${shown(cost)} values; at most ${maximum} are accepted ` +
            "(a list counts once per edge its connection's first or last asks for).",
          'cost',
          maximum,
          cost,
          operation,
        ),
      );
    }
  });
}

/**
 * The rules of `limits` for one request, run before graphql-js's own: a document they refuse is
 * never validated further, let alone executed.
 *
 * @example
 * const errors = validate(schema, document, graphqlLimitRules(DEFAULT_GRAPHQL_LIMITS, { variables }));
 */
export function graphqlLimitRules(limits: GraphqlLimits, options: LimitRuleOptions = {}): ValidationRule[] {
  return [
    maxRootFieldsRule(limits.maxRootFields, options),
    maxDepthRule(limits.maxDepth, options),
    maxCostRule(limits.maxCost, options),
  ];
}
