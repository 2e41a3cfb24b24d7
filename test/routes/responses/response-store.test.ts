/** The response store: least-recently-used eviction by entries and by bytes, expiry, items by id, deletion. */
import { describe, expect, it } from 'vitest';
import { ResponseStore, type StoredResponse } from '../../../routes/responses/response-store.js';
import type { WireInputItem } from '../../../routes/responses/responses-request-schema.js';
import type { WireResponse } from '../../../routes/responses/responses-wire.js';

const message = (id: string, text: string): WireInputItem => ({ type: 'message', id, role: 'user', content: text });

function stored(id: string, input: readonly WireInputItem[], outputText = 'ok'): StoredResponse {
  const output = [
    {
      type: 'message',
      id: `msg_${id}`,
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: outputText, annotations: [], logprobs: [] }],
    },
  ];
  return { response: { id, object: 'response', status: 'completed', output } as unknown as WireResponse, input };
}

describe('ResponseStore', () => {
  it('evicts the least recently used entry beyond its entry count', () => {
    const store = new ResponseStore({ maxEntries: 2 });
    store.put(stored('resp_a', [message('in_a', 'a')]));
    store.put(stored('resp_b', [message('in_b', 'b')]));
    expect(store.get('resp_a')?.input).toEqual([message('in_a', 'a')]);
    store.put(stored('resp_c', [message('in_c', 'c')]));
    expect(store.get('resp_b')).toBeUndefined();
    expect(store.get('resp_a')).toBeDefined();
    expect(store.get('resp_c')).toBeDefined();
    expect(store.size).toBe(2);
  });

  it('forgets entries older than its time to live', () => {
    let now = 1_000;
    const store = new ResponseStore({ ttlMs: 500, now: () => now });
    store.put(stored('resp_a', [message('in_a', 'a')]));
    now += 500;
    expect(store.get('resp_a')).toBeDefined();
    now += 1;
    expect(store.get('resp_a')).toBeUndefined();
    expect(store.size).toBe(0);
    expect(store.bytes).toBe(0);
  });

  it('evicts by bytes: a few large requests cannot hold more than maxBytes', () => {
    const store = new ResponseStore({ maxBytes: 250_000 });
    for (const name of ['a', 'b', 'c', 'd']) store.put(stored(`resp_${name}`, [message(`in_${name}`, name.repeat(100_000))]));
    expect(store.bytes).toBeLessThanOrEqual(250_000);
    expect(store.size).toBe(2);
    expect(store.get('resp_a')).toBeUndefined();
    expect(store.get('resp_d')).toBeDefined();
  });

  it('does not keep a response larger than the whole budget', () => {
    const store = new ResponseStore({ maxBytes: 10_000 });
    store.put(stored('resp_small', [message('in_s', 's')]));
    store.put(stored('resp_huge', [message('in_h', 'h'.repeat(20_000))]));
    expect(store.get('resp_huge')).toBeUndefined();
    expect(store.bytes).toBeLessThanOrEqual(10_000);
  });

  it('counts an item shared by a continued conversation once, and gives its bytes back with the last holder', () => {
    const store = new ResponseStore();
    const first = stored('resp_1', [message('in_1', 'x'.repeat(50_000))]);
    store.put(first);
    const afterFirst = store.bytes;
    const history = [...first.input, ...(first.response.output as WireInputItem[])];
    store.put(stored('resp_2', [...history, message('in_2', 'next')]));
    expect(store.bytes - afterFirst).toBeLessThan(5_000);
    store.delete('resp_1');
    expect(store.getItem('in_1')).toBeDefined();
    store.delete('resp_2');
    expect(store.getItem('in_1')).toBeUndefined();
    expect(store.bytes).toBe(0);
  });

  it('finds input and output items by id until their response goes', () => {
    const store = new ResponseStore();
    store.put(stored('resp_a', [message('in_a', 'a')], 'answer'));
    expect(store.getItem('in_a')).toEqual(message('in_a', 'a'));
    expect(store.getItem('msg_resp_a')).toMatchObject({ role: 'assistant', content: [{ text: 'answer' }] });
    expect(store.delete('resp_a')).toBe(true);
    expect(store.delete('resp_a')).toBe(false);
    expect(store.getItem('msg_resp_a')).toBeUndefined();
  });
});
