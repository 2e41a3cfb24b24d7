/**
 * Deeply frozen values: what the gateway shares between requests (a tool list an agent resends on
 * every turn is parsed, translated and serialised once). A value is shared only once it is frozen all
 * the way down, so no request can change what another one sees: a write throws instead of leaking.
 * Derived results may be memoised by the identity of such a value, because its content cannot change.
 */

/** Roots frozen by `freezeDeeply`. Only roots are recorded: a WeakSet entry per node costs more than the freezing. */
const deeplyFrozenRoots = new WeakSet<object>();

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

function freezeTree(value: object): void {
  Object.freeze(value);
  for (const child of Object.values(value)) {
    if (isObject(child) && !deeplyFrozenRoots.has(child)) freezeTree(child);
  }
}

/** Freezes the value and everything reachable from it (JSON-shaped data: no cycles), and returns it. */
export function freezeDeeply<T>(value: T): T {
  if (!isObject(value) || deeplyFrozenRoots.has(value)) return value;
  freezeTree(value);
  deeplyFrozenRoots.add(value);
  return value;
}

/** Whether the value went through `freezeDeeply`: its content is fixed, so results derived from it may be kept by identity. */
export function isDeeplyFrozen(value: unknown): boolean {
  return isObject(value) && deeplyFrozenRoots.has(value);
}
