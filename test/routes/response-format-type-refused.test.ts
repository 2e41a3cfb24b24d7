/**
 * An upstream that refuses one type of JSON response format and takes the other. LM Studio takes
 * `json_schema` (its structured outputs) but answers `json_object` with a 400 `{"error": "'response_format.type'
 * must be 'json_schema' or 'text'"}` (lmstudio-ai/lmstudio-bug-tracker#189, #307; older builds "must be
 * 'json_schema'"): a json_object request is served with the format in the prompt, and that must not take the
 * model's native json_schema (constrained decoding) away from later requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../helpers/loopback-server.js';
import { startGatewayWithOpenAiUpstream, type GatewayWithOpenAiUpstream } from '../helpers/gateway-with-openai-upstream.js';

const schema = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
};

/** LM Studio's answer to a chat request (its OpenAI-compatible /v1/chat/completions, as the issues above quote it). */
function lmStudio(request: RecordedRequest) {
  const format = (request.body as { response_format?: { type?: string } }).response_format;
  if (format && format.type !== 'json_schema' && format.type !== 'text')
    return { type: 'raw' as const, status: 400, body: JSON.stringify({ error: "'response_format.type' must be 'json_schema' or 'text'" }) };
  return { type: 'chat' as const, content: '{"city": "Paris"}' };
}

let setup: GatewayWithOpenAiUpstream;
beforeAll(async () => {
  setup = await startGatewayWithOpenAiUpstream({ lmstudio: 'auto' });
  setup.upstream.respondWith(lmStudio);
});
afterAll(async () => {
  await setup.close();
});

const messages = [{ role: 'user' as const, content: 'Where?' }];

describe('an upstream that refuses json_object only (LM Studio)', () => {
  it('serves json_object with the format in the prompt, and keeps json_schema native for the model', async () => {
    const model = 'lmstudio/qwen2.5-7b-instruct';
    const asObject = await setup.client.chat.completions.create({ model, messages, response_format: { type: 'json_object' } });
    expect(JSON.parse(asObject.choices[0]?.message.content ?? '')).toEqual({ city: 'Paris' });
    expect(setup.upstream.lastChatBody()).not.toHaveProperty('response_format');

    const before = setup.upstream.chatRequests().length;
    const responseFormat = { type: 'json_schema' as const, json_schema: { name: 'place', schema, strict: true } };
    const asSchema = await setup.client.chat.completions.create({ model, messages, response_format: responseFormat });
    expect(JSON.parse(asSchema.choices[0]?.message.content ?? '')).toEqual({ city: 'Paris' });
    expect(setup.upstream.chatRequests().length).toBe(before + 1);
    expect(setup.upstream.lastChatBody().response_format).toEqual(responseFormat);
    const warnings = (asSchema as unknown as { diagnostics?: { warnings?: { code: string }[] } }).diagnostics?.warnings ?? [];
    expect(warnings.map((warning) => warning.code)).not.toContain('strict-schema-not-guaranteed');

    // json_object is still remembered as refused: sent with the format in the prompt at once.
    const again = setup.upstream.chatRequests().length;
    await setup.client.chat.completions.create({ model, messages, response_format: { type: 'json_object' } });
    expect(setup.upstream.chatRequests().length).toBe(again + 1);
    expect(setup.upstream.lastChatBody()).not.toHaveProperty('response_format');
  });
});
