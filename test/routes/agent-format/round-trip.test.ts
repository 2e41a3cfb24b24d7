/** The return trip: an agent's text transcript reaches a native upstream as tool_calls + tool messages. */
// And a prompted upstream as its own family's history.
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../../helpers/read-sse.js';
import { chat, startAgentFormatKit, syntax, tools, type AgentFormatKit } from './agent-format-kit.js';

let kit: AgentFormatKit;

beforeAll(async () => {
  kit = await startAgentFormatKit();
});

afterAll(async () => {
  await kit?.close();
});

const qwen3 = syntax('qwen3');
const render = (name: string, args: Record<string, unknown>) => qwen3.renderCall({ name, arguments: JSON.stringify(args) });

/** Three turns of an agent that reads Qwen3 tags: two calls, their results, one call, its result, a question. */
const transcript: OpenAI.ChatCompletionMessageParam[] = [
  { role: 'system', content: 'You are a weather agent.' },
  { role: 'user', content: 'Weather in Quito and Lima?' },
  { role: 'assistant', content: `Checking both.\n${render('get_weather', { city: 'Quito' })}\n${render('get_weather', { city: 'Lima' })}` },
  { role: 'user', content: '<tool_response>\n{"temp": 20}\n</tool_response>\n<tool_response>\n{"temp": 25}\n</tool_response>' },
  { role: 'assistant', content: `Quito 20, Lima 25. Now the time.\n${render('get_time', {})}` },
  { role: 'user', content: '<tool_response>\n12:00\n</tool_response>' },
  { role: 'user', content: 'Thanks! Anything else?' },
];

describe('a qwen3 transcript', () => {
  it('reaches a native upstream as a well-formed tool transcript, and the reply comes back in qwen3 text', async () => {
    kit.native.enqueue({
      type: 'chat',
      content: 'Also checking Cusco.',
      toolCalls: [{ name: 'get_weather', arguments: { city: 'Cusco' } }],
    });
    const outcome = await chat(
      kit.client,
      { model: 'native/gpt-4o-mini', messages: transcript, tools, agent_format: 'qwen3' },
      { stream: true },
    );
    expect(kit.native.lastChatBody().messages).toEqual([
      { role: 'system', content: 'You are a weather agent.' },
      { role: 'user', content: 'Weather in Quito and Lima?' },
      {
        role: 'assistant',
        content: 'Checking both.',
        tool_calls: [
          { id: 'call_agent_2_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Quito"}' } },
          { id: 'call_agent_2_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lima"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_agent_2_0', content: '{"temp": 20}' },
      { role: 'tool', tool_call_id: 'call_agent_2_1', content: '{"temp": 25}' },
      {
        role: 'assistant',
        content: 'Quito 20, Lima 25. Now the time.',
        tool_calls: [{ id: 'call_agent_4_0', type: 'function', function: { name: 'get_time', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_agent_4_0', content: '12:00' },
      { role: 'user', content: 'Thanks! Anything else?' },
    ]);
    expect(kit.native.lastChatBody().tools).toHaveLength(2);
    expect(outcome.content).toBe(`Also checking Cusco.\n${render('get_weather', { city: 'Cusco' })}`);
    expect(outcome.toolCalls).toEqual([]);
  });

  it('reaches a prompted upstream as its own family history (Hermes tags), with no qwen3 tags left', async () => {
    kit.prompted.enqueue({ type: 'chat', content: 'Nothing else.' });
    await chat(
      kit.client,
      { model: 'prompted/qwen2.5-7b-instruct', messages: transcript, tools, agent_format: 'qwen3' },
      { stream: false },
    );
    const messages = kit.prompted.lastChatBody().messages as { role: string; content: string }[];
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user', 'user']);
    expect(messages[2]?.content).toBe(
      'Checking both.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Quito"}}\n</tool_call>\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Lima"}}\n</tool_call>',
    );
    expect(messages[3]?.content).toBe('<tool_response>\n{"temp": 20}\n</tool_response>\n<tool_response>\n{"temp": 25}\n</tool_response>');
    expect(messages[4]?.content).toBe('Quito 20, Lima 25. Now the time.\n<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>');
    expect(JSON.stringify(messages)).not.toContain('<|tool_call|>');
  });

  it('reaches a prompted Mistral Small 3.2 upstream as its v11 history ([TOOL_CALLS]NAME[CALL_ID]ID[ARGS], then [TOOL_RESULTS] in the same turn)', async () => {
    kit.prompted.enqueue({ type: 'chat', content: 'Nothing else.' });
    await chat(kit.client, { model: 'prompted/mistral-small-3.2', messages: transcript, tools, agent_format: 'qwen3' }, { stream: true });
    const messages = kit.prompted.lastChatBody().messages as { role: string; content: string }[];
    // Results the model answered join its turn, after the calls and the </s> that ends them, as the template writes them.
    expect(messages[2]?.content).toMatch(
      /^Checking both\.\[TOOL_CALLS\]get_weather\[CALL_ID\](\w{9})\[ARGS\]\{"city": "Quito"\}\[TOOL_CALLS\]get_weather\[CALL_ID\](\w{9})\[ARGS\]\{"city": "Lima"\}<\/s>\[TOOL_RESULTS\]\1\[TOOL_CONTENT\]\{"temp": 20\}\[\/TOOL_RESULTS\]\[TOOL_RESULTS\]\2\[TOOL_CONTENT\].*\[\/TOOL_RESULTS\]Quito 20, Lima 25\. Now the time\.\[TOOL_CALLS\]get_time\[CALL_ID\]\w{9}\[ARGS\]\{\}$/s,
    );
    expect(messages[3]?.content).toMatch(/^\[TOOL_RESULTS\]\w{9}\[TOOL_CONTENT\]12:00\[\/TOOL_RESULTS\]$/);
    expect(JSON.stringify(messages)).not.toContain('tool_call|>');
  });
});

/** How each agent sends the two results back (see the README's return-trip table). */
const resultsIn: Record<string, string> = {
  qwen3: '<tool_response>\n20 C\n</tool_response>\n<tool_response>\n25 C\n</tool_response>',
  xml: '<tool_response>\n20 C\n</tool_response>\n<tool_response>\n25 C\n</tool_response>',
  hermes: '<tool_response>\n20 C\n</tool_response>\n<tool_response>\n25 C\n</tool_response>',
  llama3: '{"name": "get_weather", "output": "20 C"}\n{"name": "get_weather", "output": "25 C"}',
  gemma: '```tool_output\n{"name": "get_weather", "output": "20 C"}\n```\n```tool_output\n25 C\n```',
  mistral: '[TOOL_RESULTS] {"content": "20 C", "call_id": "a1b2c3d4e"}[/TOOL_RESULTS][TOOL_RESULTS]25 C[/TOOL_RESULTS]',
  harmony:
    '<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>20 C<|end|><|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>25 C<|end|>',
};

describe('the loop an agent runs', () => {
  it.each(Object.keys(resultsIn))('%s: the calls the gateway wrote come back paired with their results', async (format) => {
    const question: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Quito and Lima?' }];
    kit.native.enqueue({
      type: 'chat',
      content: 'Checking.',
      toolCalls: [
        { name: 'get_weather', arguments: { city: 'Quito' } },
        { name: 'get_weather', arguments: { city: 'Lima' } },
      ],
    });
    const first = await chat(
      kit.client,
      { model: 'native/gpt-4o-mini', messages: question, tools, agent_format: format },
      { stream: true },
    );
    const results = resultsIn[format] as string;
    kit.native.enqueue({ type: 'chat', content: 'Quito 20, Lima 25.' });
    const second = await chat(
      kit.client,
      {
        model: 'native/gpt-4o-mini',
        messages: [...question, { role: 'assistant', content: first.content }, { role: 'user', content: results }],
        tools,
        agent_format: format,
      },
      { stream: false },
    );
    expect(second.content).toBe('Quito 20, Lima 25.');
    const sent = kit.native.lastChatBody().messages as Record<string, unknown>[];
    expect(sent.slice(1)).toEqual([
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'call_agent_1_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Quito"}' } },
          { id: 'call_agent_1_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lima"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_agent_1_0', content: '20 C' },
      { role: 'tool', tool_call_id: 'call_agent_1_1', content: '25 C' },
    ]);
  });
});

describe('results sent as tool messages for calls read as text', () => {
  const xml = syntax('xml');
  const call = xml.renderCall({ name: 'get_weather', arguments: '{"city":"Quito"}' });
  const expected = [
    { role: 'user', content: 'Weather in Quito?' },
    {
      role: 'assistant',
      content: 'Checking.',
      tool_calls: [{ id: 'call_agent_1_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Quito"}' } }],
    },
    { role: 'tool', tool_call_id: 'call_agent_1_0', content: '20 C' },
  ];

  it('a Chat role "tool" message with an id the agent made up answers the call before it', async () => {
    kit.native.enqueue({ type: 'chat', content: 'Sunny.' });
    await chat(
      kit.client,
      {
        model: 'native/gpt-4o-mini',
        tools,
        agent_format: 'xml',
        messages: [
          { role: 'user', content: 'Weather in Quito?' },
          { role: 'assistant', content: `Checking.\n${call}` },
          { role: 'tool', tool_call_id: 'call_1', content: '20 C' },
        ],
      },
      { stream: false },
    );
    expect(kit.native.lastChatBody().messages).toEqual(expected);
  });

  it('a Messages tool_result block with an id the agent made up answers the call before it', async () => {
    kit.native.enqueue({ type: 'chat', content: 'Sunny.' });
    const response = await postJson(`${kit.gateway.baseUrl}/v1/messages`, {
      model: 'native/gpt-4o-mini',
      max_tokens: 64,
      agent_format: 'xml',
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
      messages: [
        { role: 'user', content: 'Weather in Quito?' },
        { role: 'assistant', content: [{ type: 'text', text: `Checking.\n${call}` }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '20 C' }] },
      ],
    });
    expect(response.status).toBe(200);
    expect(kit.native.lastChatBody().messages).toEqual(expected);
  });
});
