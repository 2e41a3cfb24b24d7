/**
 * Translates a shared wire list once. The body parser hands every request that resends a large tools
 * array the same shared tool list (src/core/shared-tool-list.ts); its translation, kept in
 * RequestCaches.toolTranslations and shared in turn, makes the neutral tools the same list on every
 * turn, so the identity caches downstream (the tool prompt, the upstream tools JSON) hit too. Any other
 * list is translated afresh, as before.
 */
import type { RequestCaches } from '../../src/core/request-caches.js';
import { isSharedToolList } from '../../src/core/shared-tool-list.js';

export type ToolTranslations = RequestCaches['toolTranslations'];

/** What a route's request parser keeps between requests; without it, every list is worked on afresh. */
export type RouteToolCaches = Pick<RequestCaches, 'toolTranslations' | 'toolListVerdicts'>;

/**
 * `translate`, memoised for shared lists. It must be a pure function of the list: whatever depends on
 * the rest of the request (tool_choice, per-request state) stays outside. `share` freezes a fresh
 * translation and makes its neutral tools a shared list (shareToolList). A translation that throws is
 * not kept, so every request with that list gets the error.
 */
export function memoiseKnownList<Item, Result extends object>(
  translate: (list: Item[]) => Result,
  share: (result: Result) => Result,
): (list: Item[], translations?: ToolTranslations) => Result {
  const memoised = (list: Item[], translations?: ToolTranslations): Result =>
    // The memo's key besides the list is this function: each route's translation is its own.
    translations !== undefined && isSharedToolList(list)
      ? (translations.get(list, memoised, () => share(translate(list))) as Result)
      : translate(list);
  return memoised;
}
