/**
 * Fuzzing the HTTP surface: random mutations of valid bodies of the three POST APIs (wrong types,
 * nulls, deep nesting, large and odd unicode strings, prototype keys, missing fields, cut-off JSON)
 * never give a 500, a hang or a crash, and every error comes in the API's own envelope.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderOpenAiChunks } from '../helpers/fake-openai-upstream.js';
import { startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';
import { startGateway, testProvider, type StartedGateway } from '../helpers/start-gateway.js';

/** An OpenAI-compatible upstream that answers every chat request, with text and a Hermes-tagged call for the prompted lane. */
async function startAnsweringUpstream(): Promise<LoopbackServer> {
  const content = 'Sure. <tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>';
  return startLoopbackServer((request, response) => {
    const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
    const model = typeof body.model === 'string' ? body.model : 'm';
    if (body.stream === true) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const chunk of renderOpenAiChunks({ type: 'chat', content, fragmentSize: 7 }, model, true))
        response.write(`data: ${JSON.stringify(chunk)}\n\n`);
      response.end('data: [DONE]\n\n');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: 'chatcmpl-fuzz',
        object: 'chat.completion',
        created: 1,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
      }),
    );
  });
}

let upstream: LoopbackServer;
let gateway: StartedGateway;

beforeAll(async () => {
  upstream = await startAnsweringUpstream();
  // Nothing listens on port 9: the anthropic and ollama providers fail fast with a 502, after their request translation ran.
  gateway = await startGateway({
    server: { bodyLimitBytes: 4 * 1024 * 1024 },
    providers: {
      native: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }),
      prompted: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'prompted' }),
      claude: testProvider('anthropic', 'http://127.0.0.1:9', { apiKey: 'k' }),
      home: testProvider('ollama', 'http://127.0.0.1:9'),
    },
  });
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

const weatherSchema = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] };

const chatBody = {
  model: 'prompted/Qwen/Qwen3-8B',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
    },
    { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
  ],
  tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather for a city.', parameters: weatherSchema } }],
  tool_choice: 'auto',
  stream: false,
  stream_options: { include_usage: true },
  max_tokens: 64,
  temperature: 0.5,
  metadata: { team: 'a' },
};

const responsesBody = {
  model: 'native/gpt-4.1',
  instructions: 'Be brief.',
  input: [
    { role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }] },
    { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
    { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
  ],
  tools: [{ type: 'function', name: 'get_weather', description: 'Weather for a city.', parameters: weatherSchema }],
  stream: false,
  max_output_tokens: 64,
  reasoning: { effort: 'low' },
  metadata: { team: 'a' },
};

const messagesBody = {
  model: 'claude/claude-sonnet-4-5',
  max_tokens: 64,
  system: [{ type: 'text', text: 'Be brief.' }],
  messages: [
    { role: 'user', content: 'Weather in Paris?' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] },
  ],
  tools: [{ name: 'get_weather', description: 'Weather for a city.', input_schema: weatherSchema }],
  tool_choice: { type: 'auto' },
  stream: false,
  metadata: { user_id: 'u' },
};

type Envelope = 'openai' | 'anthropic';

const apis: { path: string; body: Record<string, unknown>; envelope: Envelope; models: string[] }[] = [
  {
    path: '/v1/chat/completions',
    body: chatBody,
    envelope: 'openai',
    models: ['native/gpt-4.1', 'prompted/Qwen/Qwen3-8B', 'claude/claude-sonnet-4-5', 'home/llama3.1:8b'],
  },
  {
    path: '/v1/responses',
    body: responsesBody,
    envelope: 'openai',
    models: ['native/gpt-4.1', 'prompted/mistral-small', 'claude/claude-sonnet-4-5', 'home/qwen3:8b'],
  },
  {
    path: '/v1/messages',
    body: messagesBody,
    envelope: 'anthropic',
    models: ['claude/claude-sonnet-4-5', 'native/gpt-4.1', 'prompted/Qwen/Qwen3-8B', 'home/llama3.1:8b'],
  },
];

/** Deep values are spliced into the text after JSON.stringify (which would overflow on them). */
const deepMarker = (levels: number) => `\u0000deep:${levels}\u0000`;

const prototypeKeys = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];

/** An object with an own `__proto__` key, as JSON.parse makes one (a literal would set the prototype). */
const prototypeObject = fc
  .constantFrom(...prototypeKeys)
  .chain((key) =>
    fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(`{${JSON.stringify(key)}: ${JSON.stringify(value)}}`) as unknown),
  );

const oddString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\ud800',
    '\udfff',
    '😀'.repeat(50),
    'constructor/x',
    '__proto__/x',
    'native/',
    '/',
    'claude/toString',
    '{"a":',
    '</tool_call>',
    '<tool_call>',
  ),
  fc.integer({ min: 1, max: 300_000 }).map((length) => 'x'.repeat(length)),
);

const replacement: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 1e308, Number.MAX_SAFE_INTEGER + 2, 0.5)),
  oddString,
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  prototypeObject,
  fc.constantFrom(20, 127, 128, 200, 100_000).map(deepMarker),
);

type Mutation =
  | { type: 'replace'; at: number; value: unknown }
  | { type: 'delete'; at: number }
  | { type: 'add-key'; at: number; key: string; value: unknown }
  | { type: 'model'; model: string };

const mutation = (models: string[]): fc.Arbitrary<Mutation> =>
  fc.oneof(
    fc.record({ type: fc.constant('replace' as const), at: fc.nat(), value: replacement }),
    fc.record({ type: fc.constant('delete' as const), at: fc.nat() }),
    fc.record({
      type: fc.constant('add-key' as const),
      at: fc.nat(),
      key: fc.oneof(fc.constantFrom(...prototypeKeys), fc.string({ maxLength: 8 })),
      value: replacement,
    }),
    fc.record({ type: fc.constant('model' as const), model: fc.oneof(fc.constantFrom(...models), oddString) }),
  );

type Slot = { parent: Record<string, unknown> | unknown[]; key: string | number };

/** Every member and element of the body, in document order. */
function slotsOf(value: unknown, slots: Slot[] = []): Slot[] {
  if (Array.isArray(value)) value.forEach((item, index) => (slots.push({ parent: value, key: index }), slotsOf(item, slots)));
  else if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) {
      slots.push({ parent: value as Record<string, unknown>, key });
      slotsOf((value as Record<string, unknown>)[key], slots);
    }
  }
  return slots;
}

function setSlot(slot: Slot, value: unknown): void {
  if (Array.isArray(slot.parent)) slot.parent[slot.key as number] = value;
  else Object.defineProperty(slot.parent, slot.key, { value, enumerable: true, writable: true, configurable: true });
}

function applyMutation(body: Record<string, unknown>, change: Mutation): void {
  const slots = slotsOf(body);
  switch (change.type) {
    case 'model':
      body.model = change.model;
      return;
    case 'replace': {
      const slot = slots[change.at % slots.length];
      if (slot) setSlot(slot, change.value);
      return;
    }
    case 'delete': {
      const slot = slots[change.at % slots.length];
      if (!slot) return;
      if (Array.isArray(slot.parent)) slot.parent.splice(slot.key as number, 1);
      else delete slot.parent[slot.key as string];
      return;
    }
    case 'add-key': {
      const objects = [
        body,
        ...slots
          .map((slot) => (slot.parent as Record<string | number, unknown>)[slot.key])
          .filter((value) => typeof value === 'object' && value !== null && !Array.isArray(value)),
      ];
      const target = objects[change.at % objects.length] as Record<string, unknown>;
      setSlot({ parent: target, key: change.key }, change.value);
      return;
    }
  }
}

function bodyText(base: Record<string, unknown>, changes: Mutation[], stream: boolean, cutAt: number | undefined): string {
  const body = structuredClone(base);
  body.stream = stream;
  for (const change of changes) applyMutation(body, change);
  const text = JSON.stringify(body).replace(
    /"\\u0000deep:(\d+)\\u0000"/g,
    (_match, levels: string) => `${'{"a":'.repeat(Number(levels))}1${'}'.repeat(Number(levels))}`,
  );
  return cutAt === undefined ? text : text.slice(0, cutAt % (text.length + 1));
}

function expectEnvelope(body: unknown, envelope: Envelope): void {
  if (envelope === 'openai') {
    expect(body).toEqual({
      error: {
        message: expect.any(String),
        type: expect.any(String),
        param: expect.toSatisfy((value) => value === null || typeof value === 'string'),
        code: expect.toSatisfy((value) => value === null || typeof value === 'string'),
      },
    });
  } else {
    expect(body).toEqual({ type: 'error', error: { type: expect.any(String), message: expect.any(String) } });
  }
}

/** SSE bodies: every `data:` payload is JSON (or [DONE]) and no in-band error is the gateway's own failure. */
function expectWellFormedStream(text: string): void {
  for (const line of text.split('\n')) {
    if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
    const payload = JSON.parse(line.slice('data: '.length)) as Record<string, unknown>;
    expect(JSON.stringify(payload)).not.toContain('Internal error');
  }
}

describe.each(apis)('fuzzing POST $path', (api) => {
  it('never answers 500, never hangs, and always uses the envelope', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(mutation(api.models), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        fc.option(fc.nat(), { freq: 8 }),
        async (changes, stream, cutAt) => {
          const text = bodyText(api.body, changes, stream, cutAt ?? undefined);
          const response = await fetch(`${gateway.baseUrl}${api.path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: text,
            signal: AbortSignal.timeout(10_000),
          });
          const reply = await response.text();
          expect(response.status, reply).not.toBe(500);
          expect(response.status, reply).toBeLessThan(600);
          if (response.headers.get('content-type')?.startsWith('text/event-stream')) return expectWellFormedStream(reply);
          const body = JSON.parse(reply) as unknown;
          if (response.status >= 400) expectEnvelope(body, api.envelope);
          else expect(JSON.stringify(body)).not.toContain('Internal error');
        },
      ),
      { numRuns: 100 },
    );
  }, 120_000);
});
