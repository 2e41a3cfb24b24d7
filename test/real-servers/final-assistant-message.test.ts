/**
 * A conversation ending in the assistant's own words (a Messages client's prefill, a Chat client's final
 * assistant message) is continued, not answered anew: vLLM is asked for `continue_final_message` with
 * `add_generation_prompt: false` (protocol.py refuses the two together), SGLang for
 * `continue_final_message`; llama-server continues one by itself (`prefill_assistant`, on by default) and
 * is sent neither.
 */
import { describe, expect, it } from 'vitest';
import type { FakeInferenceServer } from '../helpers/fake-inference-server.js';
import { startFakeLlamaServer } from '../helpers/fake-llama-server.js';
import { startFakeSglangServer } from '../helpers/fake-sglang-server.js';
import { startFakeVllmServer } from '../helpers/fake-vllm-server.js';
import { scriptedModel } from '../helpers/scripted-models.js';
import { startGateway, waitForServerDetection } from '../helpers/start-gateway.js';
import { closedAfterEach } from '../helpers/closed-after-each.js';
import { post } from '../routes/messages/messages-test-kit.js';

const running = closedAfterEach();
const model = scriptedModel('hermes');

async function gatewayFor(started: FakeInferenceServer) {
  running.gateway = await startGateway(
    { providers: { s: { type: 'openai-compatible', baseUrl: `${started.url}/v1` } } },
    { detectServers: true },
  );
  await waitForServerDetection(running.gateway);
  return running.gateway;
}

/** The generation fields of the last chat body the server was sent. */
function lastGenerationFields(started: FakeInferenceServer) {
  const body = started.bodiesOf('/v1/chat/completions').at(-1) ?? {};
  return { continue_final_message: body.continue_final_message, add_generation_prompt: body.add_generation_prompt };
}

async function askChatToContinue(started: FakeInferenceServer, name: string): Promise<void> {
  const gateway = await gatewayFor(started);
  await gateway.client().chat.completions.create({
    model: `s/${name}`,
    messages: [
      { role: 'user', content: 'Name a French city.' },
      { role: 'assistant', content: 'The city is' },
    ],
  });
}

describe('a final assistant message is continued', () => {
  it('vLLM (Chat): continue_final_message, add_generation_prompt off', async () => {
    running.server = await startFakeVllmServer({ model, toolCallParser: true });
    await askChatToContinue(running.server, model.id);
    expect(lastGenerationFields(running.server)).toEqual({ continue_final_message: true, add_generation_prompt: false });
  });

  it('vLLM (a Messages prefill): continue_final_message, add_generation_prompt off', async () => {
    running.server = await startFakeVllmServer({ model, toolCallParser: true });
    const gateway = await gatewayFor(running.server);
    const response = await post(`${gateway.baseUrl}/v1/messages`, {
      model: `s/${model.id}`,
      max_tokens: 64,
      messages: [
        { role: 'user', content: 'Name a French city.' },
        { role: 'assistant', content: 'The city is' },
      ],
    });
    expect(response.status).toBe(200);
    expect(lastGenerationFields(running.server)).toEqual({ continue_final_message: true, add_generation_prompt: false });
  });

  it('SGLang: continue_final_message (serving_chat.py appends the final message after the rendered rest)', async () => {
    running.server = await startFakeSglangServer({ model });
    await askChatToContinue(running.server, model.id);
    expect(lastGenerationFields(running.server)).toEqual({ continue_final_message: true, add_generation_prompt: undefined });
  });

  it('llama-server: neither, as it continues a final assistant message itself', async () => {
    running.server = await startFakeLlamaServer({ model });
    await askChatToContinue(running.server, 'any-name');
    expect(lastGenerationFields(running.server)).toEqual({ continue_final_message: undefined, add_generation_prompt: undefined });
  });

  it('vLLM, a conversation ending in a user message: neither', async () => {
    running.server = await startFakeVllmServer({ model, toolCallParser: true });
    const gateway = await gatewayFor(running.server);
    await gateway
      .client()
      .chat.completions.create({ model: `s/${model.id}`, messages: [{ role: 'user', content: 'Name a French city.' }] });
    expect(lastGenerationFields(running.server)).toEqual({ continue_final_message: undefined, add_generation_prompt: undefined });
  });
});
