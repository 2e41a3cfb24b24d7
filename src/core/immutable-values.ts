/**
 * Deeply frozen values: what the gateway shares between requests (a shared tool list, a rendered
 * tool prompt) is frozen all the way down, so no request can change what another one sees: a write
 * throws instead of leaking. Which values are shared, and what is cached by their identity, is
 * written in shared-tool-list.ts and request-caches.ts.
 */

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/** Freezes the value and everything reachable from it (JSON-shaped data: no cycles), and returns it. */
export function freezeDeeply<T>(value: T): T {
  if (!isObject(value)) return value;
  Object.freeze(value);
  for (const child of Object.values(value)) {
    // Already frozen children are entered too: a shallowly frozen object may hold mutable ones. Values
    // are frozen once, when they start being shared, so the walk is not paid per request.
    if (isObject(child)) freezeDeeply(child);
  }
  return value;
}
