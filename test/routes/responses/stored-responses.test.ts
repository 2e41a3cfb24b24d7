/**
 * The Responses store as clients see it: item_reference, store on and off, GET/DELETE and input_items, driven by
 * the openai SDK, with in-process state and with Redis (the same semantics, whichever keeps the responses).
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { redisServerPath, warnWhenRedisIsMissing } from '../../helpers/redis-server.js';
import { useRedisServer } from '../../helpers/use-redis-server.js';
import { nativeModel, useResponsesHarness } from './responses-test-kit.js';

async function statusOf(
  promise: Promise<unknown>,
): Promise<{ status: number | undefined; message: string; param: string | null | undefined }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof OpenAI.APIError) return { status: error.status, message: error.message, param: error.param };
    throw error;
  }
  throw new Error('expected the request to fail');
}

const backends = redisServerPath ? ['in-process', 'redis'] : ['in-process'];
warnWhenRedisIsMissing('the Redis-backed stored-response tests');

describe.each(backends)('with %s state', (backend) => {
  const redis = backend === 'redis' ? useRedisServer() : undefined;
  const kit = useResponsesHarness(redis && (() => ({ redis: redis.server.url })));

  describe('item_reference', () => {
    it('resolves earlier output items by id, as the AI SDK sends them with store on', async () => {
      kit.harness.upstream.enqueue({
        type: 'chat',
        content: 'Let me read it.',
        toolCalls: [{ id: 'call_read_1', name: 'read_file', arguments: { path: 'a.txt' } }],
      });
      const tools: OpenAI.Responses.Tool[] = [
        { type: 'function', name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } }, strict: false },
      ];
      const first = await kit.client.responses.create({ model: nativeModel, input: 'Read a.txt', tools });
      expect((first as unknown as { store: boolean }).store).toBe(true);
      const [message, call] = first.output;

      kit.harness.upstream.enqueue({ type: 'chat', content: 'It says hello.' });
      const second = await kit.client.responses.create({
        model: nativeModel,
        tools,
        input: [
          { role: 'user', content: 'Read a.txt' },
          { type: 'item_reference', id: message!.id! },
          { type: 'item_reference', id: (call as { id: string }).id },
          { type: 'function_call_output', call_id: 'call_read_1', output: 'hello' },
        ],
      });
      expect(second.output_text).toBe('It says hello.');
      expect(kit.harness.upstream.lastChatBody().messages).toEqual([
        { role: 'user', content: 'Read a.txt' },
        {
          role: 'assistant',
          content: 'Let me read it.',
          tool_calls: [{ id: 'call_read_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_read_1', content: 'hello' },
      ]);
    });

    it('answers 404 naming the id when the item is unknown, without calling the upstream', async () => {
      const before = kit.harness.upstream.requests.length;
      const failure = await statusOf(
        kit.client.responses.create({
          model: nativeModel,
          input: [
            { role: 'user', content: 'hi' },
            { type: 'item_reference', id: 'msg_nowhere' },
          ],
        }),
      );
      expect(failure).toMatchObject({ status: 404, param: 'input[1].id' });
      expect(failure.message).toContain("'msg_nowhere'");
      expect(kit.harness.upstream.requests.length).toBe(before);
    });

    it('does not resolve items of a response created with store: false', async () => {
      kit.harness.upstream.enqueue({ type: 'chat', content: 'secret' });
      const unstored = await kit.client.responses.create({ model: nativeModel, input: 'hi', store: false });
      expect((unstored as unknown as { store: boolean }).store).toBe(false);
      const failure = await statusOf(
        kit.client.responses.create({ model: nativeModel, input: [{ type: 'item_reference', id: unstored.output[0]!.id! }] }),
      );
      expect(failure.status).toBe(404);
      expect((await statusOf(kit.client.responses.retrieve(unstored.id))).status).toBe(404);
    });
  });

  describe('stored responses', () => {
    it('GET returns the response as created, input_items lists its input, DELETE forgets it', async () => {
      kit.harness.upstream.enqueue({ type: 'chat', content: 'Paris.' });
      const input = [
        { type: 'message', id: 'msg_in_1', role: 'user', content: 'Capital of France?' },
      ] as unknown as OpenAI.Responses.ResponseInput;
      const created = await kit.client.responses.create({ model: nativeModel, input });

      const retrieved = await kit.client.responses.retrieve(created.id);
      expect(retrieved).toEqual(created);

      const items = await kit.client.responses.inputItems.list(created.id);
      expect(items.data).toEqual([
        {
          type: 'message',
          id: 'msg_in_1',
          role: 'user',
          status: 'completed',
          content: [{ type: 'input_text', text: 'Capital of France?' }],
        },
      ]);

      await kit.client.responses.delete(created.id);
      expect((await statusOf(kit.client.responses.retrieve(created.id))).status).toBe(404);
      const deletedAgain = await statusOf(kit.client.responses.delete(created.id));
      expect(deletedAgain.status).toBe(404);
      expect(deletedAgain.message).toContain(created.id);
    });

    it('input_items pages newest first by default, oldest first with order=asc, after a cursor', async () => {
      kit.harness.upstream.enqueue({ type: 'chat', content: 'ok' });
      const input = ['a', 'b', 'c'].map((name) => ({ type: 'message' as const, id: `msg_${name}`, role: 'user' as const, content: name }));
      const created = await kit.client.responses.create({ model: nativeModel, input });
      const url = `${kit.harness.gateway.baseUrl}/v1/responses/${created.id}/input_items`;
      const newest = (await (await fetch(`${url}?limit=2`)).json()) as {
        data: { id: string }[];
        has_more: boolean;
        first_id: string;
        last_id: string;
      };
      expect(newest).toMatchObject({ object: 'list', first_id: 'msg_c', last_id: 'msg_b', has_more: true });
      const rest = (await (await fetch(`${url}?limit=2&after=msg_b`)).json()) as { data: { id: string }[]; has_more: boolean };
      expect(rest.data.map((item) => item.id)).toEqual(['msg_a']);
      expect(rest.has_more).toBe(false);
      const oldest = (await (await fetch(`${url}?order=asc`)).json()) as { data: { id: string }[] };
      expect(oldest.data.map((item) => item.id)).toEqual(['msg_a', 'msg_b', 'msg_c']);
      const bad = await fetch(`${url}?limit=0`);
      expect(bad.status).toBe(400);
    });

    it('gives items sent without ids stable ids, so the SDK’s auto-pagination walks every page', async () => {
      kit.harness.upstream.enqueue({ type: 'chat', content: 'ok' });
      const input: OpenAI.Responses.ResponseInput = [
        { role: 'system', content: 'Be brief.' },
        ...Array.from({ length: 4 }, (_, index) => ({ role: 'user' as const, content: `question ${index}` })),
        { role: 'assistant', content: 'thinking about it' },
        { type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'found' },
      ];
      const created = await kit.client.responses.create({ model: nativeModel, input });

      const walked: OpenAI.Responses.ResponseItem[] = [];
      for await (const item of kit.client.responses.inputItems.list(created.id, { limit: 3, order: 'asc' })) walked.push(item);
      expect(walked).toHaveLength(input.length);
      const ids = walked.map((item) => item.id);
      expect(new Set(ids).size).toBe(input.length);
      expect(ids.every((id) => typeof id === 'string' && id !== '')).toBe(true);
      // The same ids on every read of the stored response.
      const again = await kit.client.responses.inputItems.list(created.id, { order: 'asc' });
      expect(again.data.map((item) => item.id)).toEqual(ids);
      expect(walked[0]).toMatchObject({ type: 'message', role: 'system', content: [{ type: 'input_text', text: 'Be brief.' }] });
      expect(walked[5]).toMatchObject({
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'thinking about it' }],
      });
      expect(walked[6]).toMatchObject({ type: 'function_call', call_id: 'call_1', status: 'completed', id: expect.stringMatching(/^fc_/) });

      // `before` pages back from an id.
      const before = (await (
        await fetch(`${kit.harness.gateway.baseUrl}/v1/responses/${created.id}/input_items?order=asc&limit=2&before=${ids[4]}`)
      ).json()) as {
        data: { id: string }[];
        has_more: boolean;
      };
      expect(before.data.map((item) => item.id)).toEqual([ids[2], ids[3]]);
    });
  });
});
