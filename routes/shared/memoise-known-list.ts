/**
 * Translates a known wire list once. The body parser hands every request that resends a large tools
 * array the same deeply frozen value (src/core/immutable-values.ts); a translation of it kept by that
 * identity makes the neutral tools the same array on every turn, so the identity memos downstream
 * (the tool prompt, the upstream tools JSON) hit too. Any other list is translated afresh, as before.
 */
import { freezeDeeply, isDeeplyFrozen } from '../../src/core/immutable-values.js';

/**
 * Frozen all the way down, since every request that resends the list shares it. A record's members
 * are frozen as roots of their own first: a route hands its `tools` on alone, and downstream only
 * recognises a known value by `isDeeplyFrozen`, which looks at roots.
 */
function freezeShared<Result extends object>(result: Result): Result {
  if (!Array.isArray(result)) {
    for (const member of Object.values(result)) freezeDeeply(member);
  }
  return freezeDeeply(result);
}

/**
 * `translate`, memoised for known lists. It must be a pure function of the list: whatever depends on
 * the rest of the request (tool_choice, per-request state) stays outside. A translation that throws
 * is not kept, so every request with that list gets the error.
 */
export function memoiseKnownList<List extends object, Result extends object>(translate: (list: List) => Result): (list: List) => Result {
  // Weak: a translation lives as long as its list does (in the body parser or a request in flight).
  const translations = new WeakMap<List, Result>();
  return (list) => {
    if (!isDeeplyFrozen(list)) return translate(list);
    let translation = translations.get(list);
    if (translation === undefined) {
      translation = freezeShared(translate(list));
      translations.set(list, translation);
    }
    return translation;
  };
}
