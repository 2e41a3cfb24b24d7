/** ChatPipeline over in-memory adapters: the native lane, the prompted lane (with a stub tool format), and finalisation. */
import { describe, expect, it } from 'vitest';
import { providerKind } from '../../providers/index.js';
import { normalizeConfig } from '../../src/config/normalize-config.js';
import type { ChatInput, ChatRequest } from '../../src/core/chat-request.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import { silentLogger } from '../../src/core/logger.js';
import type { Message } from '../../src/core/message.js';
import type { ProviderAdapter, ProviderContext } from '../../src/core/provider-adapter.js';
import type { StreamEvent } from '../../src/core/stream-event.js';
import type { ParsedEvent, ToolCallParser, ToolFormat } from '../../src/core/tool-format.js';
import { AccessPolicy } from '../../src/pipeline/access-policy.js';
import { ChatPipeline } from '../../src/pipeline/chat-pipeline.js';
import { RequestCancellation } from '../../src/pipeline/request-cancellation.js';

/** An adapter that records each request and replays scripted events. */
class ScriptedAdapter implements ProviderAdapter {
  readonly requests: ChatRequest[] = [];
  private readonly scripts: (StreamEvent[] | GatewayError)[] = [];

  script(...scripts: (StreamEvent[] | GatewayError)[]): void {
    this.scripts.push(...scripts);
  }

  async stream(request: ChatRequest, _context: ProviderContext): Promise<AsyncIterable<StreamEvent>> {
    this.requests.push(request);
    const script = this.scripts.shift();
    if (!script) throw new Error('no scripted reply');
    if (GatewayError.isInstance(script)) throw script;
    return (async function* () {
      yield* script;
    })();
  }
}

/** A stub syntax: `<call>{"name":…,"arguments":…}</call>`, parsed once the reply is complete. */
function stubFormat(family: string): ToolFormat {
  return {
    family,
    renderTools: (tools, choice) => `TOOLS(${family}): ${tools.map((tool) => tool.name).join(',')} choice=${choice.type}`,
    renderHistory: (messages: Message[]) =>
      messages.map((message): Message => {
        if (message.role === 'assistant') {
          const text = message.content
            .map((part) =>
              part.type === 'tool-call'
                ? `<call>${JSON.stringify({ name: part.name, arguments: JSON.parse(part.arguments) })}</call>`
                : part.type === 'text'
                  ? part.text
                  : '',
            )
            .join('');
          return { role: 'assistant', content: [{ type: 'text', text }] };
        }
        if (message.role === 'tool')
          return {
            role: 'user',
            content: message.content.map((part) => ({ type: 'text', text: `RESULT ${part.toolCallId}: ${part.output}` })),
          };
        return message;
      }),
    renderCall: (call) => `<call>${JSON.stringify({ name: call.name, arguments: JSON.parse(call.arguments) })}</call>`,
    createParser: (tools): ToolCallParser => {
      let buffer = '';
      const names = new Set(tools.map((tool) => tool.name));
      return {
        push: (text) => {
          buffer += text;
          return [];
        },
        finish: () => {
          const events: ParsedEvent[] = [];
          let rest = buffer;
          for (;;) {
            const open = rest.indexOf('<call>');
            const close = rest.indexOf('</call>', open);
            if (open === -1 || close === -1) break;
            if (open > 0) events.push({ type: 'text', text: rest.slice(0, open) });
            const body = rest.slice(open + '<call>'.length, close);
            const call = JSON.parse(body) as { name: string; arguments: unknown };
            if (names.has(call.name)) events.push({ type: 'tool-call', name: call.name, arguments: JSON.stringify(call.arguments) });
            else events.push({ type: 'tool-call-rejected', code: 'unavailable_tool', message: `no tool '${call.name}'`, text: body });
            rest = rest.slice(close + '</call>'.length);
          }
          if (rest) events.push({ type: 'text', text: rest });
          return events;
        },
      };
    },
  };
}

const config = normalizeConfig(
  {
    providers: {
      native: { type: 'openai-compatible', baseUrl: 'http://127.0.0.1:1/v1', toolCalling: 'native' },
      prompted: { type: 'openai-compatible', baseUrl: 'http://127.0.0.1:1/v1', toolCalling: 'prompted' },
    },
  },
  {},
);

function setup(formats: ToolFormat[] = [stubFormat('hermes'), stubFormat('generic-json')]) {
  const native = new ScriptedAdapter();
  const prompted = new ScriptedAdapter();
  const pipeline = new ChatPipeline({
    config,
    kinds: providerKind,
    providers: new Map<string, ProviderAdapter>([
      ['native', native],
      ['prompted', prompted],
    ]),
    toolFormats: new Map(formats.map((format) => [format.family, format])),
  });
  return { pipeline, native, prompted };
}

const context: ProviderContext = { cancellation: new RequestCancellation(), requestId: 'request-1', log: silentLogger };

const weather = { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } };
const time = { name: 'get_time', parameters: { type: 'object' } };

function input(overrides: Partial<ChatInput> = {}): ChatInput {
  return { model: 'native/gpt-test', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], ...overrides };
}

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const collected: StreamEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

const start = (warnings: { code: string; message: string }[] = []): StreamEvent => ({
  type: 'response-start',
  id: 'r1',
  model: 'm',
  warnings,
});
const finish = (unified: 'stop' | 'tool-calls' | 'length', raw?: string): StreamEvent => ({
  type: 'finish',
  reason: raw === undefined ? { unified } : { unified, raw },
  usage: { inputTokens: 3, outputTokens: 2 },
});

describe('native lane', () => {
  it('hands the resolved request to the adapter with tools intact and passes the events through', async () => {
    const { pipeline, native } = setup();
    const events: StreamEvent[] = [
      start(),
      { type: 'tool-call-start', index: 0, id: 'call_1', name: 'get_weather' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":"Oslo"}' },
      { type: 'tool-call-end', index: 0, arguments: '{"city":"Oslo"}' },
      finish('tool-calls', 'tool_calls'),
    ];
    native.script(events);
    const run = await pipeline.run(
      input({ tools: [weather], toolChoice: { type: 'auto' }, parallelToolCalls: false, temperature: 0 }),
      context,
    );
    expect(run).toMatchObject({ toolCalling: 'native', model: { provider: 'native', model: 'gpt-test', id: 'native/gpt-test' } });
    expect(run.toolFormat).toBeUndefined();
    expect(await collect(run.events)).toEqual(events);
    expect(native.requests[0]).toMatchObject({
      tools: [weather],
      toolChoice: { type: 'auto' },
      parallelToolCalls: false,
      temperature: 0,
      model: { model: 'gpt-test' },
    });
    expect(native.requests[0]).not.toHaveProperty('provider');
  });

  it('reports the adapter warnings in the finish diagnostics', async () => {
    const { pipeline, native } = setup();
    native.script([start([{ code: 'unsupported-parameter', message: "no 'seed'" }]), { type: 'text-delta', delta: 'ok' }, finish('stop')]);
    const events = await collect((await pipeline.run(input(), context)).events);
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      diagnostics: { warnings: [{ code: 'unsupported-parameter', message: "no 'seed'" }] },
    });
  });

  it('makes finish honest: tool-calls when calls were returned, stop when none were', async () => {
    const { pipeline, native } = setup();
    const call: StreamEvent[] = [
      { type: 'tool-call-start', index: 0, id: 'c', name: 'get_time' },
      { type: 'tool-call-end', index: 0, arguments: '{}' },
    ];
    native.script(
      [start(), ...call, finish('stop', 'stop')],
      [start(), { type: 'text-delta', delta: 'x' }, finish('tool-calls', 'tool_calls')],
      [start(), ...call, finish('length', 'length')],
    );
    const last = async () => (await collect((await pipeline.run(input({ tools: [time] }), context)).events)).at(-1);
    expect(await last()).toMatchObject({ type: 'finish', reason: { unified: 'tool-calls', raw: 'stop' } });
    expect(await last()).toMatchObject({ type: 'finish', reason: { unified: 'stop', raw: 'tool_calls' } });
    // A cut-off call is still a length stop: the client must see the truncation.
    expect(await last()).toMatchObject({ type: 'finish', reason: { unified: 'length' } });
  });

  it('turns a stream that ends without finish into one in-band 502 error', async () => {
    const { pipeline, native } = setup();
    native.script([start(), { type: 'text-delta', delta: 'partial' }]);
    const events = await collect((await pipeline.run(input(), context)).events);
    const last = events.at(-1);
    expect(last?.type).toBe('error');
    if (last?.type !== 'error') return;
    expect(last.error).toMatchObject({ status: 502, code: 'upstream_incomplete' });
    expect(last.error.message).toContain("'native'");
  });

  it('stops at the first error event', async () => {
    const { pipeline, native } = setup();
    const failure = new GatewayError({ status: 502, type: 'upstream_error', message: 'boom' });
    native.script([start(), { type: 'error', error: failure }, { type: 'text-delta', delta: 'after' }, finish('stop')]);
    const events = await collect((await pipeline.run(input(), context)).events);
    expect(events.map((event) => event.type)).toEqual(['response-start', 'error']);
  });

  it('rejects when the adapter rejects (an HTTP error, not a stream)', async () => {
    const { pipeline, native } = setup();
    native.script(new GatewayError({ status: 429, type: 'rate_limit_error', message: 'slow down', retryAfter: '2' }));
    await expect(pipeline.run(input(), context)).rejects.toMatchObject({ status: 429, retryAfter: '2' });
  });

  it('validates tools before calling any adapter', async () => {
    const { pipeline, native } = setup();
    await expect(pipeline.run(input({ tools: [weather, { ...weather }] }), context)).rejects.toMatchObject({
      status: 400,
      code: 'duplicate_tool_name',
      param: 'tools[1].function.name',
    });
    await expect(pipeline.run(input({ tools: [weather], toolChoice: { type: 'tool', name: 'nope' } }), context)).rejects.toMatchObject({
      status: 400,
      param: 'tool_choice',
    });
    await expect(pipeline.run(input({ toolChoice: { type: 'required' } }), context)).rejects.toMatchObject({
      status: 400,
      param: 'tool_choice',
    });
    expect(native.requests).toHaveLength(0);
  });

  it('rejects an unknown provider with a 404 before calling any adapter', async () => {
    const { pipeline, native } = setup();
    await expect(pipeline.run(input({ model: 'elsewhere/x' }), context)).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    expect(native.requests).toHaveLength(0);
  });
});

describe('prompted lane', () => {
  const conversation: ChatInput['messages'] = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
    { role: 'assistant', content: [{ type: 'tool-call', id: 'call_old', name: 'get_weather', arguments: '{"city":"Rome"}' }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_old', output: 'sunny' }] },
  ];

  it('writes the tools into the system prompt, renders history as text, and sends no native tool fields', async () => {
    const { pipeline, prompted } = setup();
    prompted.script([start(), { type: 'text-delta', delta: 'ok' }, finish('stop')]);
    const run = await pipeline.run(
      input({
        model: 'prompted/Qwen/Qwen3-8B',
        messages: conversation,
        tools: [weather, time],
        toolChoice: { type: 'auto' },
        parallelToolCalls: true,
      }),
      context,
    );
    expect(run).toMatchObject({ toolCalling: 'prompted', toolFormat: 'hermes' });
    const sent = prompted.requests[0] as ChatRequest;
    // The adapter sees no native tool fields (left undefined, which no adapter sends).
    expect(sent.tools).toBeUndefined();
    expect(sent.toolChoice).toBeUndefined();
    expect(sent.parallelToolCalls).toBeUndefined();
    expect(sent.messages).toEqual([
      { role: 'system', content: 'Be brief.\n\nTOOLS(hermes): get_weather,get_time choice=auto' },
      { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
      { role: 'assistant', content: [{ type: 'text', text: '<call>{"name":"get_weather","arguments":{"city":"Rome"}}</call>' }] },
      { role: 'user', content: [{ type: 'text', text: 'RESULT call_old: sunny' }] },
    ]);
    expect(await collect(run.events)).toMatchObject([
      { type: 'response-start' },
      { type: 'text-delta', delta: 'ok' },
      { type: 'finish', reason: { unified: 'stop' } },
    ]);
  });

  it('parses calls out of the text into start/delta/end events with fresh ids and indexes 0..n', async () => {
    const { pipeline, prompted } = setup();
    prompted.script([
      start(),
      { type: 'text-delta', delta: 'Let me look. <call>{"name":"get_weather",' },
      { type: 'text-delta', delta: '"arguments":{"city":"Oslo"}}</call><call>{"name":"get_time","arguments":{}}</call>' },
      finish('stop', 'stop'),
    ]);
    const events = await collect((await pipeline.run(input({ model: 'prompted/Qwen/Qwen3-8B', tools: [weather, time] }), context)).events);
    const starts = events.filter((event): event is Extract<StreamEvent, { type: 'tool-call-start' }> => event.type === 'tool-call-start');
    expect(starts.map((event) => [event.index, event.name])).toEqual([
      [0, 'get_weather'],
      [1, 'get_time'],
    ]);
    for (const event of starts) expect(event.id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(starts[0]?.id).not.toBe(starts[1]?.id);
    expect(events.filter((event) => event.type === 'tool-call-end')).toEqual([
      { type: 'tool-call-end', index: 0, arguments: '{"city":"Oslo"}' },
      { type: 'tool-call-end', index: 1, arguments: '{}' },
    ]);
    expect(events.find((event) => event.type === 'text-delta')).toEqual({ type: 'text-delta', delta: 'Let me look. ' });
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: { unified: 'tool-calls' } });
  });

  it('reports a call to an unoffered tool in diagnostics, not as a call', async () => {
    const { pipeline, prompted } = setup();
    prompted.script([start(), { type: 'text-delta', delta: '<call>{"name":"rm_rf","arguments":{}}</call>' }, finish('stop')]);
    const events = await collect((await pipeline.run(input({ model: 'prompted/Qwen/Qwen3-8B', tools: [weather] }), context)).events);
    expect(events.some((event) => event.type === 'tool-call-start')).toBe(false);
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      reason: { unified: 'stop' },
      diagnostics: { toolCallError: { code: 'unavailable_tool', availableTools: ['get_weather'] } },
    });
  });

  it('keeps only the first call when parallel_tool_calls is false, with a warning', async () => {
    const { pipeline, prompted } = setup();
    prompted.script([
      start(),
      { type: 'text-delta', delta: '<call>{"name":"get_time","arguments":{}}</call><call>{"name":"get_weather","arguments":{}}</call>' },
      finish('stop'),
    ]);
    const events = await collect(
      (await pipeline.run(input({ model: 'prompted/Qwen/Qwen3-8B', tools: [weather, time], parallelToolCalls: false }), context)).events,
    );
    expect(events.filter((event) => event.type === 'tool-call-start')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ diagnostics: { warnings: [{ code: 'parallel-tool-calls-dropped' }] } });
  });

  it('neither renders tools nor parses when tool_choice is none', async () => {
    const { pipeline, prompted } = setup();
    const text = '<call>{"name":"get_time","arguments":{}}</call>';
    prompted.script([start(), { type: 'text-delta', delta: text }, finish('stop')]);
    const events = await collect(
      (await pipeline.run(input({ model: 'prompted/Qwen/Qwen3-8B', tools: [time], toolChoice: { type: 'none' } }), context)).events,
    );
    expect((prompted.requests[0] as ChatRequest).messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'hi' }] });
    expect(events.find((event) => event.type === 'text-delta')).toEqual({ type: 'text-delta', delta: text });
  });

  it('falls back to the generic-json format for a family without one, and fails clearly with none at all', async () => {
    const { pipeline, prompted } = setup([stubFormat('generic-json')]);
    prompted.script([start(), finish('stop')]);
    expect((await pipeline.run(input({ model: 'prompted/Qwen/Qwen3-8B', tools: [time] }), context)).toolFormat).toBe('generic-json');
    const bare = setup([]);
    await expect(bare.pipeline.run(input({ model: 'prompted/Qwen/Qwen3-8B', tools: [time] }), context)).rejects.toMatchObject({
      status: 500,
    });
  });
});

describe('singleTarget (count_tokens) finds a deployment target as a chat does', () => {
  const deploymentConfig = normalizeConfig(
    {
      server: { apiKeys: [{ key: 'prompted-only', name: 'prompted-only', models: ['prompted/*'] }] },
      providers: {
        native: { type: 'openai-compatible', baseUrl: 'http://127.0.0.1:1/v1', toolCalling: 'native' },
        prompted: { type: 'openai-compatible', baseUrl: 'http://127.0.0.1:1/v1', toolCalling: 'native' },
      },
      // The native target first by weight: the key's filter alone moves the request to the other one.
      deployments: { coder: { targets: [{ model: 'native/coder-a', weight: 1e9 }, { model: 'prompted/coder-b' }] } },
    },
    {},
  );
  const access = new AccessPolicy(deploymentConfig.server.clientKeys[0]!);

  function deploymentPipeline() {
    const adapter = new ScriptedAdapter();
    const pipeline = new ChatPipeline({
      config: deploymentConfig,
      kinds: providerKind,
      providers: new Map<string, ProviderAdapter>([
        ['native', adapter],
        ['prompted', adapter],
      ]),
      toolFormats: new Map(),
    });
    return { pipeline, adapter };
  }

  it('the same target, keeping the name the client asked for, with the key filter applied', async () => {
    const { pipeline, adapter } = deploymentPipeline();
    adapter.script([{ type: 'finish', reason: { unified: 'stop' }, usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } }]);
    const run = await pipeline.run(input({ model: 'coder' }), context, { access });
    const single = pipeline.singleTarget('coder', access);
    expect(single.deployment).toBe(run.deployment);
    expect(single.model).toEqual(run.model);
    expect(single.model).toMatchObject({ id: 'coder', provider: 'prompted', model: 'coder-b' });
  });

  it('a key that may use none of the targets is refused as a chat is (403 model_not_allowed)', async () => {
    const { pipeline } = deploymentPipeline();
    const none = new AccessPolicy({ ...deploymentConfig.server.clientKeys[0]!, models: ['elsewhere/*'] });
    const chat = await pipeline.run(input({ model: 'coder' }), context, { access: none }).catch((error: unknown) => error);
    let counted: unknown;
    try {
      pipeline.singleTarget('coder', none);
    } catch (error) {
      counted = error;
    }
    expect(counted).toMatchObject({ status: 403, code: 'model_not_allowed', message: (chat as GatewayError).message });
  });
});
