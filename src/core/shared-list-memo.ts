/**
 * Results derived from shared tool lists, kept by the list's identity (sound because a shared list
 * cannot change: shared-tool-list.ts). Weak: an entry lives as long as its list does, so the bound is
 * the body parser's (a handful of remembered lists) plus the requests in flight.
 */
import type { SharedToolList } from './shared-tool-list.js';

/** One result per list. */
export class SharedListMemo<Value> {
  private readonly values = new WeakMap<SharedToolList<unknown>, Value>();

  /** The result kept for `list`, or `compute()`'s, kept from now on (a compute that throws keeps nothing). */
  get(list: SharedToolList<unknown>, compute: () => Value): Value {
    let value = this.values.get(list);
    if (value === undefined) {
      value = compute();
      this.values.set(list, value);
    }
    return value;
  }
}

/**
 * One result per list and key (a tool prompt per family and tool_choice, a verdict per schema). Keys
 * come from the gateway's own code or a bounded set (families), never straight from a client.
 */
export class KeyedSharedListMemo<Key, Value> {
  private readonly values = new WeakMap<SharedToolList<unknown>, Map<Key, Value>>();

  get(list: SharedToolList<unknown>, key: Key, compute: () => Value): Value {
    let byKey = this.values.get(list);
    if (byKey === undefined) {
      byKey = new Map();
      this.values.set(list, byKey);
    }
    let value = byKey.get(key);
    if (value === undefined) {
      value = compute();
      byKey.set(key, value);
    }
    return value;
  }
}
