/**
 * A native call whose arguments nest far deeper than any real call, in a reply read whole: the Message
 * holds `{}` and says why (writing the value overflowed the stack: a 500 in the Anthropic envelope).
 */
import { describe, expect, it } from 'vitest';
import { anthropicEvents, messagesBody, post, providers, useMessagesKit } from './messages-test-kit.js';

const harness = useMessagesKit();

const tools = [{ name: 'Bash', description: 'Run a command', input_schema: { type: 'object', properties: { command: {} } } }];
const nested = (depth: number) => `{"command":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
const deepArguments = nested(20_000);

/** An Anthropic `message` whose one tool_use block has this input, verbatim (the fake's JSON.stringify could not write it). */
const anthropicMessage = (input: string) =>
  `{"id":"msg_deep","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"toolu_D","name":"Bash","input":${input}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":2}}`;

describe('a Message whose tool call nests 20,000 deep', () => {
  it.each([
    ['an OpenAI-compatible upstream', `${providers.openai}/Qwen/Qwen3-8B`, 'call_deep'],
    ['an Anthropic upstream', `${providers.anthropic}/claude-sonnet-4-5`, 'toolu_D'],
  ])('from %s is a 200 with input {} and a warning naming the call', async (_upstream, model, id) => {
    if (model.startsWith(providers.openai))
      harness.kit.openai.enqueue({ type: 'chat', toolCalls: [{ id, name: 'Bash', arguments: deepArguments }], fragmentSize: 4096 });
    else
      harness.kit.anthropic.enqueue({ type: 'raw', status: 200, contentType: 'application/json', body: anthropicMessage(deepArguments) });
    const response = await post(harness.url, messagesBody(model, { tools }));
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text)).toMatchObject({
      content: [{ type: 'tool_use', id, name: 'Bash', input: {} }],
      stop_reason: 'tool_use',
      diagnostics: {
        warnings: [{ code: 'invalid-tool-arguments', message: expect.stringContaining(`'${id}' (Bash) nest deeper than 200 levels`) }],
      },
    });
  });

  it('streamed, passes the text as received (valid JSON; no Message to write)', async () => {
    harness.kit.openai.enqueue({
      type: 'chat',
      toolCalls: [{ id: 'call_deep', name: 'Bash', arguments: deepArguments }],
      fragmentSize: 4096,
    });
    const response = await post(harness.url, messagesBody(`${providers.openai}/Qwen/Qwen3-8B`, { tools, stream: true }));
    expect(response.status).toBe(200);
    const text = anthropicEvents(response.text)
      .map((event) => (event.delta as { partial_json?: string } | undefined)?.partial_json ?? '')
      .join('');
    expect(text === deepArguments).toBe(true);
  });

  it('keeps an input as deep as the bound', async () => {
    const arguments_ = nested(199);
    harness.kit.openai.enqueue({ type: 'chat', toolCalls: [{ id: 'call_ok', name: 'Bash', arguments: arguments_ }] });
    const response = await post(harness.url, messagesBody(`${providers.openai}/Qwen/Qwen3-8B`, { tools }));
    const message = JSON.parse(response.text) as { content: { input: unknown }[]; diagnostics?: unknown };
    expect(message.content[0]?.input).toEqual(JSON.parse(arguments_));
    expect(message.diagnostics).toBeUndefined();
  });
});
