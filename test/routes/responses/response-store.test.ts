/** The previous_response_id store: least-recently-used eviction and expiry. */
import { describe, expect, it } from 'vitest';
import { ResponseStore } from '../../../routes/responses/response-store.js';

const items = (text: string) => [{ type: 'message', role: 'user', content: text }];

describe('ResponseStore', () => {
  it('evicts the least recently used entry beyond its size', () => {
    const store = new ResponseStore({ maxEntries: 2 });
    store.save('resp_a', items('a'));
    store.save('resp_b', items('b'));
    expect(store.get('resp_a')).toEqual(items('a'));
    store.save('resp_c', items('c'));
    expect(store.get('resp_b')).toBeUndefined();
    expect(store.get('resp_a')).toEqual(items('a'));
    expect(store.get('resp_c')).toEqual(items('c'));
    expect(store.size).toBe(2);
  });

  it('forgets entries older than its time to live', () => {
    let now = 1_000;
    const store = new ResponseStore({ ttlMs: 500, now: () => now });
    store.save('resp_a', items('a'));
    now += 500;
    expect(store.get('resp_a')).toEqual(items('a'));
    now += 1;
    expect(store.get('resp_a')).toBeUndefined();
    expect(store.size).toBe(0);
  });
});
