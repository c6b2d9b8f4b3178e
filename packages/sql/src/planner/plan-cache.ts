import type { KeyTerm } from '@pagewise/core';
import type { SqlSession } from '../catalog/session.js';
import { type OrderPlan, type PlanSource, planOrder } from './order-plan.js';

/** The plans of one query shape (the statement without its values), kept by the adapter per shape. */
export interface ShapePlans<Template = unknown> {
  /** Plans by the ordering's text and the plan options (`SqlSession.planKey`). */
  readonly plans: Map<string, Promise<OrderPlan<Template>>>;
  /**
   * The same plans found by a frozen ordering array (the one a paginator keeps per ordering),
   * then by `planKey`: no ordering written out as text per page.
   */
  readonly frozenPlans: WeakMap<
    readonly KeyTerm[],
    Map<string, OrderPlan<Template> | Promise<OrderPlan<Template>>>
  >;
  /**
   * The last plan resolved for a frozen ordering, with its terms and `planKey`: a paginator made
   * per request (as views make them) keys a new frozen ordering with the same terms on every
   * page, which then finds this plan by its terms instead of writing them out and remembering
   * one more array. Replaced by any other ordering; it holds nothing of a request.
   */
  recentFrozen: {
    readonly order: readonly KeyTerm[];
    readonly planKey: string;
    readonly plan: OrderPlan<Template>;
  } | null;
}

/**
 * A new, empty `ShapePlans`.
 * @example
 * const shape = { key, templates: new Map(), ...shapePlans() };
 */
export function shapePlans<Template>(): ShapePlans<Template> {
  return { plans: new Map(), frozenPlans: new WeakMap(), recentFrozen: null };
}

/**
 * The plan of `order` on this shape (`planOrder`), made once per ordering's text and `planKey`.
 * @example
 * await planByText(shape, session, source, order)
 */
export function planByText<Template>(
  shape: ShapePlans<Template>,
  session: SqlSession,
  source: PlanSource,
  order: readonly KeyTerm[],
): Promise<OrderPlan<Template>> {
  const key = planText(session, source, order);
  const cache = shape.plans;
  let plan = cache.get(key);
  if (!plan) {
    plan = planOrder<Template>(session, source, order);
    plan.catch(() => cache.delete(key));
    cache.set(key, plan);
  }
  return plan;
}

/**
 * The plan of `order`: found by the array itself when it is frozen (a paginator passes the same
 * frozen ordering on every page), or by its terms when they are those of the last frozen
 * ordering resolved (a paginator per request freezes equal terms anew), else by its text.
 * Either way per shape and `planKey`. A plan found without its text, once resolved, is answered
 * as it is, without a promise to await.
 *
 * @example
 * const found = planFor(shape, session, source, order);
 * const plan = found instanceof Promise ? await found : found;
 */
export function planFor<Template>(
  shape: ShapePlans<Template>,
  session: SqlSession,
  source: PlanSource,
  order: readonly KeyTerm[],
): OrderPlan<Template> | Promise<OrderPlan<Template>> {
  const planKey = session.planKey;
  // A renaming ORM's plans are keyed by the tree's names too (`planText`), never by the array.
  if (source.renamed === true || !isFrozenOrder(order)) return planByText(shape, session, source, order);
  const frozenPlans = shape.frozenPlans;
  let byOptions = frozenPlans.get(order);
  const known = byOptions?.get(planKey);
  if (known !== undefined) return known;
  const recent = shape.recentFrozen;
  if (recent !== null && recent.planKey === planKey && sameKeyTerms(recent.order, order)) return recent.plan;
  const plan = planByText(shape, session, source, order);
  if (byOptions === undefined) {
    byOptions = new Map();
    frozenPlans.set(order, byOptions);
  }
  const plans = byOptions;
  plans.set(planKey, plan);
  plan.then(
    (resolved) => {
      if (plans.get(planKey) === plan) plans.set(planKey, resolved);
      shape.recentFrozen = { order, planKey, plan: resolved };
    },
    () => plans.delete(planKey),
  );
  return plan;
}

/**
 * What a plan of `order` is cached under: the ordering and `planKey`; where the ORM renames
 * columns, also the tree's names of its fields (one shape's caches serve every renaming of one
 * database).
 */
function planText(session: SqlSession, source: PlanSource, order: readonly KeyTerm[]): string {
  const text = JSON.stringify(order);
  if (source.renamed !== true || source.treeField === undefined) return text + session.planKey;
  const tree = source.treeField.bind(source);
  return `${text}n${JSON.stringify(order.map((term) => tree(term.field)))}${session.planKey}`;
}

/** Whether two orderings have the same terms (field, direction, NULL placement, unique mark). */
function sameKeyTerms(a: readonly KeyTerm[], b: readonly KeyTerm[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.field !== y.field || x.direction !== y.direction || x.nulls !== y.nulls || x.unique !== y.unique) {
      return false;
    }
  }
  return true;
}

/**
 * Whether `order` and its terms are frozen, so that the array stands for the same ordering as
 * long as it lives (its terms are plain values: core makes them).
 */
function isFrozenOrder(order: readonly KeyTerm[]): boolean {
  if (!Object.isFrozen(order)) return false;
  for (let i = 0; i < order.length; i += 1) if (!Object.isFrozen(order[i])) return false;
  return true;
}
