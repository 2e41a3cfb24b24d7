/** agent_format on /v1/chat/completions through the real openai client: every format, both lanes, streamed and not. */
import { APIError } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { postJson, sseFrames } from '../../helpers/read-sse.js';
import {
  chat,
  expectedContent,
  hermesReply,
  mistralReply,
  startAgentFormatKit,
  syntax,
  syntaxes,
  tools,
  twoCalls,
  type AgentFormatKit,
} from './agent-format-kit.js';

let kit: AgentFormatKit;

beforeAll(async () => {
  kit = await startAgentFormatKit();
});

afterAll(async () => {
  await kit?.close();
});

const question = [{ role: 'user' as const, content: 'Weather in Quito and Lima?' }];

/** The two lanes, each scripted to answer "Checking." plus the two calls its own way. */
const lanes = [
  {
    lane: 'native',
    model: 'native/gpt-4o-mini',
    script: () => kit.native.enqueue({ type: 'chat', content: 'Checking.', toolCalls: twoCalls }),
  },
  {
    lane: 'prompted',
    model: 'prompted/qwen2.5-7b-instruct',
    script: () => kit.prompted.enqueue({ type: 'chat', content: hermesReply, fragmentSize: 2 }),
  },
  // Whatever syntax the model writes: Mistral in, any format out.
  {
    lane: 'prompted Mistral',
    model: 'prompted/mistral-small-3.2',
    script: () => kit.prompted.enqueue({ type: 'chat', content: mistralReply, fragmentSize: 1 }),
  },
] as const;

const cases = [...syntaxes.keys()].flatMap((format) =>
  lanes.flatMap((lane) => [false, true].map((stream) => ({ format, ...lane, stream }))),
);

describe.each(cases)('agent_format $format from the $lane lane (stream: $stream)', ({ format, model, script, stream }) => {
  it('writes both calls into the content in order, returns no tool_calls, and finishes with stop', async () => {
    script();
    const outcome = await chat(kit.client, { model, messages: question, tools, agent_format: format }, { stream });
    expect(outcome.content).toBe(expectedContent(syntax(format)));
    expect(outcome.toolCalls).toEqual([]);
    expect(outcome.finishReason).toBe('stop');
    expect(outcome.headers.get('x-agent-format')).toBe(`${format}; source=field`);
  });
});

describe.each([false, true])('structured formats (stream: %s)', (stream) => {
  it.each(lanes)('openai and codex return tool_calls and no markup from the $lane lane', async ({ model, script }) => {
    for (const format of ['openai', 'codex']) {
      script();
      const outcome = await chat(kit.client, { model, messages: question, tools, agent_format: format }, { stream });
      // The prompted lane keeps the whitespace between the calls as text.
      expect(outcome.content?.trim()).toBe('Checking.');
      expect(outcome.toolCalls.map((call) => [call.name, JSON.parse(call.arguments)])).toEqual(
        twoCalls.map((call) => [call.name, call.arguments]),
      );
      expect(outcome.finishReason).toBe('tool_calls');
    }
  });

  it('passthrough keeps the prompted model text, markup included, and returns the structured calls too', async () => {
    kit.prompted.enqueue({ type: 'chat', content: `<think>plan</think>${hermesReply}`, fragmentSize: 2 });
    const outcome = await chat(
      kit.client,
      { model: 'prompted/qwen2.5-7b-instruct', messages: question, tools, agent_format: 'passthrough' },
      { stream },
    );
    expect(outcome.content).toBe(`<think>plan</think>${hermesReply}`);
    expect(outcome.toolCalls.map((call) => [call.name, JSON.parse(call.arguments)])).toEqual(
      twoCalls.map((call) => [call.name, call.arguments]),
    );
    expect(outcome.toolCalls.every((call) => call.id.length > 0)).toBe(true);
    expect(outcome.finishReason).toBe('tool_calls');
    expect(outcome.headers.get('x-agent-format')).toBe('passthrough; source=field');
  });

  // The native lane read the markup out of the text (a vLLM server without a tool parser leaves it there), and
  // passthrough lost it: the prompted lane's raw text was kept, the native lane's was not.
  it('passthrough from a native server that left the markup as text keeps that text, and returns the calls in it', async () => {
    kit.native.enqueue({ type: 'chat', content: `<think>plan</think>${hermesReply}`, fragmentSize: 2 });
    const outcome = await chat(
      kit.client,
      { model: 'vllm/Qwen/Qwen2.5-7B-Instruct', messages: question, tools, agent_format: 'passthrough' },
      { stream },
    );
    expect(outcome.content).toBe(`<think>plan</think>${hermesReply}`);
    expect(outcome.toolCalls.map((call) => [call.name, JSON.parse(call.arguments)])).toEqual(
      twoCalls.map((call) => [call.name, call.arguments]),
    );
    expect(outcome.finishReason).toBe('tool_calls');
  });

  it('passthrough from a native upstream is the text and the calls as they came', async () => {
    kit.native.enqueue({ type: 'chat', content: 'Checking.', toolCalls: twoCalls });
    const outcome = await chat(
      kit.client,
      { model: 'native/gpt-4o-mini', messages: question, tools, agent_format: 'passthrough' },
      { stream },
    );
    expect(outcome.content).toBe('Checking.');
    expect(outcome.toolCalls).toHaveLength(2);
  });

  it('custom tags wrap each call in exactly those tags', async () => {
    kit.native.enqueue({ type: 'chat', toolCalls: [{ name: 'get_time', arguments: {} }] });
    const outcome = await chat(
      kit.client,
      { model: 'native/gpt-4o-mini', messages: question, tools, tool_call_tags: '[[CALL]],[[/CALL]]' },
      { stream },
    );
    expect(outcome.content).toBe('[[CALL]]\n{\n  "name": "get_time",\n  "arguments": {}\n}\n[[/CALL]]');
    expect(outcome.toolCalls).toEqual([]);
    expect(outcome.headers.get('x-agent-format')).toBe('custom; source=field');
  });

  it('a single tag name means <name> and </name>', async () => {
    kit.prompted.enqueue({ type: 'chat', content: hermesReply });
    const outcome = await chat(
      kit.client,
      { model: 'prompted/qwen2.5-7b-instruct', messages: question, tools, tool_call_tags: 'call' },
      { stream },
    );
    expect(outcome.content).toMatch(/^Checking\.\n<call>\n\{[\s\S]*"Quito"[\s\S]*<\/call>\n<call>\n[\s\S]*"Lima"[\s\S]*<\/call>$/);
  });
});

describe('a native upstream that breaks off in its second call', () => {
  it('still gives the first call, whole, before the in-band error, as the structured format does', async () => {
    kit.native.enqueue({ type: 'chat', content: 'Checking.', toolCalls: twoCalls, fragmentSize: 4, cutAfterChunks: 12 });
    const response = await postJson(`${kit.gateway.baseUrl}/v1/chat/completions`, {
      model: 'native/gpt-4o-mini',
      messages: question,
      tools,
      agent_format: 'qwen3',
      stream: true,
    });
    const frames = sseFrames(response.text).map((frame) => JSON.parse(frame) as Record<string, unknown>);
    const content = frames
      .map((frame) => (frame.choices as { delta: { content?: string } }[] | undefined)?.[0]?.delta.content ?? '')
      .join('');
    const [first] = twoCalls;
    expect(content).toBe(`Checking.\n${syntax('qwen3').renderCall({ name: 'get_weather', arguments: JSON.stringify(first?.arguments) })}`);
    expect(frames.at(-1)).toMatchObject({ error: { type: 'upstream_error' } });
  });
});

describe('detection', () => {
  beforeEach(() => kit.native.enqueue({ type: 'chat', content: 'Checking.', toolCalls: twoCalls }));
  const ask = (headers: Record<string, string>, extra: Record<string, string> = {}) =>
    chat(kit.client, { model: 'native/gpt-4o-mini', messages: question, tools, ...extra }, { stream: false, headers });

  it('the X-Agent-Format header selects a format', async () => {
    const outcome = await ask({ 'X-Agent-Format': 'xml' });
    expect(outcome.content).toBe(expectedContent(syntax('xml')));
    expect(outcome.headers.get('x-agent-format')).toBe('xml; source=header');
  });

  it('the body field wins over the header', async () => {
    const outcome = await ask({ 'X-Agent-Format': 'xml' }, { agent_format: 'llama3' });
    expect(outcome.content).toBe(expectedContent(syntax('llama3')));
    expect(outcome.headers.get('x-agent-format')).toBe('llama3; source=field');
  });

  it('the header wins over a Codex user agent', async () => {
    const outcome = await ask({ 'X-Agent-Format': 'qwen3', 'User-Agent': 'codex_cli_rs/0.1.0 (Linux; x86_64)' });
    expect(outcome.headers.get('x-agent-format')).toBe('qwen3; source=header');
  });

  it('a Codex user agent gets structured calls, by rule', async () => {
    const outcome = await ask({ 'User-Agent': 'codex_exec/0.171.0 (Debian 12.0.0; x86_64) xterm (codex_exec; 0.171.0)' });
    expect(outcome.toolCalls).toHaveLength(2);
    expect(outcome.headers.get('x-agent-format')).toBe('codex; source=rule');
  });

  it('the originator header alone is enough', async () => {
    const outcome = await ask({ originator: 'codex_cli_rs' });
    expect(outcome.headers.get('x-agent-format')).toBe('codex; source=rule');
  });

  it('otherwise openai, whatever the model is called', async () => {
    const outcome = await ask({});
    expect(outcome.toolCalls).toHaveLength(2);
    expect(outcome.headers.get('x-agent-format')).toBe('openai; source=default');
  });
});

describe('errors', () => {
  it.each([false, true])(
    'an unknown agent_format is a 400 naming the valid values, before the upstream is called (stream: %s)',
    async (stream) => {
      const before = kit.native.chatRequests().length;
      const error = await chat(
        kit.client,
        { model: 'native/gpt-4o-mini', messages: question, tools, agent_format: 'klingon' },
        { stream },
      ).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(APIError);
      const apiError = error as APIError;
      expect(apiError.status).toBe(400);
      expect(apiError.param).toBe('agent_format');
      expect(apiError.message).toContain("'klingon'");
      for (const name of ['openai', 'codex', 'passthrough', 'qwen3', 'llama3', 'xml', 'hermes', 'custom'])
        expect(apiError.message).toContain(name);
      expect(kit.native.chatRequests().length).toBe(before);
    },
  );

  it('an unknown X-Agent-Format header value is a 400 too', async () => {
    const error = (await chat(
      kit.client,
      { model: 'native/gpt-4o-mini', messages: question, tools },
      { stream: false, headers: { 'X-Agent-Format': 'nope' } },
    ).catch((caught: unknown) => caught)) as APIError;
    expect(error.status).toBe(400);
    expect(error.message).toContain('X-Agent-Format');
  });

  it('bad tool_call_tags are a 400 on tool_call_tags', async () => {
    const error = (await chat(
      kit.client,
      { model: 'native/gpt-4o-mini', messages: question, tools, tool_call_tags: 'a,b,c' },
      { stream: false },
    ).catch((caught: unknown) => caught)) as APIError;
    expect(error.status).toBe(400);
    expect(error.param).toBe('tool_call_tags');
  });
});

describe('a failed reply', () => {
  it('a reply that fails names its agent format too: an unknown model, an upstream error', async () => {
    const send = (model: string) =>
      fetch(`${kit.gateway.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-agent-format': 'xml' },
        body: JSON.stringify({ model, messages: question, tools }),
      });
    const unknown = await send('nowhere/model');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-agent-format')).toBe('xml; source=header');
    kit.native.enqueue({ type: 'http-error', status: 500, message: 'upstream broke' });
    const failed = await send('native/gpt-4o-mini');
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(failed.headers.get('x-agent-format')).toBe('xml; source=header');
  });
});
