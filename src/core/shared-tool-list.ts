/**
 * A shared tool list: a `tools` array that several requests hold at once (agents resend theirs on
 * every turn, and the body parser hands each of them the same value). It is deeply frozen, so it
 * cannot change while it is shared, and marked, so that what is derived from it (its translation, its
 * rendered prompt, its wire JSON) may be cached by its identity: see request-caches.ts for the caches.
 * `shareToolList` is the only way to make one.
 */
import { freezeDeeply } from './immutable-values.js';

declare const sharedToolListBrand: unique symbol;

/**
 * A deeply frozen list that `shareToolList` made; any other array, even an equal one, is not one. Typed
 * as an array, as the neutral request's `tools` are, but frozen: a write throws.
 */
export type SharedToolList<Item> = Item[] & { readonly [sharedToolListBrand]: true };

// A symbol cannot come out of JSON.parse, so no request body can forge the mark; it is not
// enumerable, so JSON.stringify, Object.keys and deep equality do not see it.
const sharedMark = Symbol('interlingua.sharedToolList');

/** Whether the value is a shared tool list. */
export function isSharedToolList<Item>(value: Item[]): value is SharedToolList<Item>;
export function isSharedToolList(value: unknown): value is SharedToolList<unknown>;
export function isSharedToolList(value: unknown): boolean {
  return Array.isArray(value) && (value as unknown as Record<symbol, unknown>)[sharedMark] === true;
}

/** Marks the list as shared and freezes it (and everything in it), then returns it as a SharedToolList. */
export function shareToolList<Item>(list: Item[]): SharedToolList<Item> {
  if (isSharedToolList(list)) return list;
  Object.defineProperty(list, sharedMark, { value: true });
  return freezeDeeply(list) as SharedToolList<Item>;
}
