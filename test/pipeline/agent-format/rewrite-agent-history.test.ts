/** The return trip: text calls in the agent's history become structured calls, wrapped results become tool messages. */
import { describe, expect, it } from 'vitest';
import type { AgentTextSyntax } from '../../../src/core/agent-text-syntax.js';
import type { Message } from '../../../src/core/message.js';
import { rewriteAgentHistory } from '../../../src/pipeline/agent-format/rewrite-agent-history.js';
import { createAgentSyntaxRegistry } from '../../../tool-formats/agent-syntaxes/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { getTime, getWeather } from '../../tool-formats/helpers/tools.js';

const registry = createAgentSyntaxRegistry(createToolFormatRegistry());
const syntax = (id: string) => registry.syntaxes.get(id) as AgentTextSyntax;
const tools = [getWeather, getTime];

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });

function qwen3Transcript(): Message[] {
  const qwen3 = syntax('qwen3');
  return [
    { role: 'system', content: 'You are a weather agent.' },
    user('Weather in Quito and Lima?'),
    assistant(
      `Checking both.\n${qwen3.renderCall({ name: 'get_weather', arguments: '{"city":"Quito"}' })}\n${qwen3.renderCall({ name: 'get_weather', arguments: '{"city":"Lima"}' })}`,
    ),
    user('<tool_response>\n{"temp": 20}\n</tool_response>\n<tool_response>\n{"temp": 25}\n</tool_response>'),
    assistant(`Quito 20, Lima 25. Now the time.\n${qwen3.renderCall({ name: 'get_time', arguments: '{}' })}`),
    user('<tool_response>\n12:00\n</tool_response>\nThanks!'),
  ];
}

describe('rewriteAgentHistory (qwen3)', () => {
  it('turns a three-turn text transcript into tool_calls and tool messages with deterministic ids', () => {
    expect(rewriteAgentHistory(qwen3Transcript(), syntax('qwen3'), tools)).toEqual([
      { role: 'system', content: 'You are a weather agent.' },
      user('Weather in Quito and Lima?'),
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking both.' },
          { type: 'tool-call', id: 'call_agent_2_0', name: 'get_weather', arguments: '{"city":"Quito"}' },
          { type: 'tool-call', id: 'call_agent_2_1', name: 'get_weather', arguments: '{"city":"Lima"}' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_agent_2_0', toolName: 'get_weather', output: '{"temp": 20}' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_agent_2_1', toolName: 'get_weather', output: '{"temp": 25}' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Quito 20, Lima 25. Now the time.' },
          { type: 'tool-call', id: 'call_agent_4_0', name: 'get_time', arguments: '{}' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_agent_4_0', toolName: 'get_time', output: '12:00' }] },
      user('Thanks!'),
    ]);
  });

  it('gives the same ids every time the same history comes back', () => {
    expect(rewriteAgentHistory(qwen3Transcript(), syntax('qwen3'), tools)).toEqual(
      rewriteAgentHistory(qwen3Transcript(), syntax('qwen3'), tools),
    );
  });

  it('keeps a call without a result as text, so no structured call is left dangling', () => {
    const qwen3 = syntax('qwen3');
    const second = qwen3.renderCall({ name: 'get_time', arguments: '{}' });
    const rewritten = rewriteAgentHistory(
      [
        user('go'),
        assistant(`${qwen3.renderCall({ name: 'get_weather', arguments: '{"city":"Quito"}' })}\n${second}`),
        user('<tool_response>\nsunny\n</tool_response>'),
      ],
      qwen3,
      tools,
    );
    expect(rewritten[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: second },
        { type: 'tool-call', id: 'call_agent_1_0', name: 'get_weather', arguments: '{"city":"Quito"}' },
      ],
    });
    expect(rewritten.slice(2)).toEqual([
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_agent_1_0', toolName: 'get_weather', output: 'sunny' }] },
    ]);
  });

  it('collects results spread over consecutive user turns', () => {
    const qwen3 = syntax('qwen3');
    const calls = ['Quito', 'Lima']
      .map((city) => qwen3.renderCall({ name: 'get_weather', arguments: JSON.stringify({ city }) }))
      .join('\n');
    const rewritten = rewriteAgentHistory(
      [assistant(calls), user('<tool_response>a</tool_response>'), user('<tool_response>b</tool_response>')],
      qwen3,
      tools,
    );
    expect(rewritten.map((message) => message.role)).toEqual(['assistant', 'tool', 'tool']);
  });

  it('leaves turns alone when nothing answers them, when the markup is unreadable or names an unknown tool, and without tools', () => {
    const qwen3 = syntax('qwen3');
    const unanswered = [assistant(qwen3.renderCall({ name: 'get_time', arguments: '{}' })), user('never mind')];
    expect(rewriteAgentHistory(unanswered, qwen3, tools)).toEqual(unanswered);
    const unknown = [assistant(qwen3.renderCall({ name: 'launch', arguments: '{}' })), user('<tool_response>ok</tool_response>')];
    expect(rewriteAgentHistory(unknown, qwen3, tools)).toEqual(unknown);
    const broken = [assistant('<|tool_call|>{"name": "get_time", '), user('<tool_response>ok</tool_response>')];
    expect(rewriteAgentHistory(broken, qwen3, tools)).toEqual(broken);
    const answered = [assistant(qwen3.renderCall({ name: 'get_time', arguments: '{}' })), user('<tool_response>ok</tool_response>')];
    expect(rewriteAgentHistory(answered, qwen3, [])).toEqual(answered);
  });

  it('does not read results from a turn that carries an image', () => {
    const qwen3 = syntax('qwen3');
    const history: Message[] = [
      assistant(qwen3.renderCall({ name: 'get_time', arguments: '{}' })),
      {
        role: 'user',
        content: [
          { type: 'text', text: '<tool_response>ok</tool_response>' },
          { type: 'file', mediaType: 'image/png', data: 'data:image/png;base64,AA==' },
        ],
      },
    ];
    expect(rewriteAgentHistory(history, qwen3, tools)).toEqual(history);
  });

  it('keeps text that is not a result after the tool messages, and extra results as text', () => {
    const qwen3 = syntax('qwen3');
    const rewritten = rewriteAgentHistory(
      [
        assistant(qwen3.renderCall({ name: 'get_time', arguments: '{}' })),
        user('Here:\n<tool_response>12:00</tool_response>\n<tool_response>extra</tool_response>'),
      ],
      qwen3,
      tools,
    );
    expect(rewritten.slice(1)).toEqual([
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_agent_0_0', toolName: 'get_time', output: '12:00' }] },
      user('Here:\n\n<tool_response>extra</tool_response>'),
    ]);
  });
});

describe('rewriteAgentHistory (other syntaxes)', () => {
  it('reads llama3 <function_call> blocks and ipython results, in JSON-object or header form', () => {
    const llama3 = syntax('llama3');
    const calls = assistant(
      ['Quito', 'Lima'].map((city) => llama3.renderCall({ name: 'get_weather', arguments: JSON.stringify({ city }) })).join('\n'),
    );
    const json = rewriteAgentHistory(
      [calls, user('{"name": "get_weather", "output": {"temp": 20}}\n{"name": "get_weather", "output": "25 C"}')],
      llama3,
      tools,
    );
    expect(json.slice(1).map((message) => message.role === 'tool' && message.content[0]?.output)).toEqual(['{"temp":20}', '25 C']);
    const headed = rewriteAgentHistory(
      [
        calls,
        user('<|start_header_id|>ipython<|end_header_id|>\n\n{"temp": 20}<|eot_id|><|start_header_id|>ipython<|end_header_id|>\n\n25 C'),
      ],
      llama3,
      tools,
    );
    expect(headed.slice(1).map((message) => message.role === 'tool' && message.content[0]?.output)).toEqual(['{"temp": 20}', '25 C']);
  });

  it('reads xml and hermes <tool_call> blocks with <tool_response> results', () => {
    for (const id of ['xml', 'hermes']) {
      const format = syntax(id);
      const rewritten = rewriteAgentHistory(
        [assistant(`Sure.\n${format.renderCall({ name: 'get_time', arguments: '{}' })}`), user('<tool_response>\n12:00\n</tool_response>')],
        format,
        tools,
      );
      expect(rewritten, id).toEqual([
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Sure.' },
            { type: 'tool-call', id: 'call_agent_0_0', name: 'get_time', arguments: '{}' },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_agent_0_0', toolName: 'get_time', output: '12:00' }] },
      ]);
    }
  });

  it('reads custom tags', () => {
    const custom = registry.custom('[[CALL]]', '[[/CALL]]');
    const rewritten = rewriteAgentHistory(
      [assistant(custom.renderCall({ name: 'get_time', arguments: '{}' })), user('<tool_response>12:00</tool_response>')],
      custom,
      tools,
    );
    expect(rewritten.map((message) => message.role)).toEqual(['assistant', 'tool']);
  });
});

describe('rewriteAgentHistory: which call a result answers', () => {
  const weatherThenTime = (format: AgentTextSyntax) =>
    assistant(
      `${format.renderCall({ name: 'get_weather', arguments: '{"city":"Quito"}' })}\n${format.renderCall({ name: 'get_time', arguments: '{}' })}`,
    );
  const outputs = (messages: Message[]) =>
    messages.flatMap((message) =>
      message.role === 'tool' ? message.content.map((part) => [part.toolCallId, part.toolName, part.output]) : [],
    );

  // Results come back in the order the tools finished; pairing them by position told the model the weather was "12:00".
  it.each([
    [
      'harmony',
      '<|start|>functions.get_time to=assistant<|channel|>commentary<|message|>12:00<|end|><|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>20 C<|end|>',
    ],
    ['llama3', '{"name": "get_time", "output": "12:00"}\n{"name": "get_weather", "output": "20 C"}'],
    [
      'gemma',
      '```tool_output\n{"name": "get_time", "output": "12:00"}\n```\n```tool_output\n{"name": "get_weather", "output": "20 C"}\n```',
    ],
  ])('%s: a result that names its tool answers the call to that tool, whatever its place', (id, results) => {
    const format = syntax(id);
    expect(outputs(rewriteAgentHistory([weatherThenTime(format), user(results)], format, tools))).toEqual([
      ['call_agent_0_0', 'get_weather', '20 C'],
      ['call_agent_0_1', 'get_time', '12:00'],
    ]);
  });

  it('leaves a call that no result answers as text, even when a later call is answered', () => {
    const llama3 = syntax('llama3');
    const rewritten = rewriteAgentHistory([weatherThenTime(llama3), user('{"name": "get_time", "output": "12:00"}')], llama3, tools);
    expect(outputs(rewritten)).toEqual([['call_agent_0_1', 'get_time', '12:00']]);
    expect(rewritten[0]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: llama3.renderCall({ name: 'get_weather', arguments: '{"city":"Quito"}' }) },
        { type: 'tool-call', id: 'call_agent_0_1', name: 'get_time', arguments: '{}' },
      ],
    });
  });

  // An agent that read the calls as text may still send results as tool messages (Chat's role "tool", a Messages
  // tool_result block) with an id of its own: handed on as they were, they answered no call, which a native upstream refuses.
  it('ties tool messages whose ids answer no structured call to the text calls before them, in order', () => {
    const qwen3 = syntax('qwen3');
    const result = (toolCallId: string, output: string): Message => ({
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId, output }],
    });
    const rewritten = rewriteAgentHistory(
      [weatherThenTime(qwen3), result('call_1', '20 C'), result('toolu_2', '12:00'), user('Thanks')],
      qwen3,
      tools,
    );
    expect(rewritten).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', id: 'call_agent_0_0', name: 'get_weather', arguments: '{"city":"Quito"}' },
          { type: 'tool-call', id: 'call_agent_0_1', name: 'get_time', arguments: '{}' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_agent_0_0', toolName: 'get_weather', output: '20 C' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_agent_0_1', toolName: 'get_time', output: '12:00' }] },
      user('Thanks'),
    ]);
  });

  it('leaves tool messages that answer a structured call in the history alone', () => {
    const qwen3 = syntax('qwen3');
    const history: Message[] = [
      {
        role: 'assistant',
        content: [
          { type: 'text', text: qwen3.renderCall({ name: 'get_time', arguments: '{}' }) },
          { type: 'tool-call', id: 'call_real', name: 'get_weather', arguments: '{"city":"Quito"}' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_real', output: '20 C' }] },
    ];
    expect(rewriteAgentHistory(history, qwen3, tools)).toEqual(history);
  });

  it('pairs a text call with its result past the tool message of a structured call in the same turn', () => {
    const qwen3 = syntax('qwen3');
    const structuredResult: Message = { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_real', output: '20 C' }] };
    const history: Message[] = [
      {
        role: 'assistant',
        content: [
          { type: 'text', text: qwen3.renderCall({ name: 'get_time', arguments: '{}' }) },
          { type: 'tool-call', id: 'call_real', name: 'get_weather', arguments: '{"city":"Quito"}' },
        ],
      },
      structuredResult,
      user('<tool_response>\n12:00\n</tool_response>\nAnd now?'),
    ];
    // The results follow the calls' order in the rebuilt turn: the text call's, then the structured call's.
    expect(rewriteAgentHistory(history, qwen3, tools)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', id: 'call_agent_0_0', name: 'get_time', arguments: '{}' },
          { type: 'tool-call', id: 'call_real', name: 'get_weather', arguments: '{"city":"Quito"}' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_agent_0_0', toolName: 'get_time', output: '12:00' }] },
      structuredResult,
      user('And now?'),
    ]);
  });
});
