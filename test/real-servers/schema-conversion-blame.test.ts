/**
 * llama-server refuses any schema its json-schema-to-grammar cannot convert in the same words, a tool's as
 * well as the response format's ("JSON schema conversion failed:\n…"), and builds with the automatic parser
 * generator convert the format's schema alone when a request has one (chat-auto-parser-generator.cpp,
 * `autoparser::build_parser`): the tools' schemas are read only once the format is out of the way. Only a
 * refusal of the format's schema moves the format into the prompt (and is remembered for that schema); a
 * tool's moves the request to the prompted lane (test/real-servers/tool-schema-refused.test.ts), even when it
 * comes on the request sent again with the format in the prompt.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeInferenceServer } from '../helpers/fake-inference-server.js';
import { startFakeLlamaServer } from '../helpers/fake-llama-server.js';
import { postJson, sseChunks } from '../helpers/read-sse.js';
import { weatherCall } from '../helpers/scripted-generation.js';
import { scriptedModel } from '../helpers/scripted-models.js';
import { startGateway, waitForServerDetection, type StartedGateway } from '../helpers/start-gateway.js';
import { weatherQuestion } from './weather-request.js';

/** A city with a non-blank character: valid JSON Schema, which llama.cpp refuses as an unanchored pattern. */
const unanchoredCity = { type: 'string', pattern: '\\S' };
/** A property with a description and nothing else: any value, read since ggml-org/llama.cpp#20021. */
const anyValue = { description: 'Value for add/replace/test operations' };
const tool = (properties: Record<string, unknown>) => ({
  type: 'function',
  function: { name: weatherCall.name, parameters: { type: 'object', properties, required: ['city'] } },
});
const goodTool = tool({ city: { type: 'string' } });
const badTool = tool({ city: unanchoredCity });
const untypedTool = tool({ city: { type: 'string' }, detail: anyValue });
const goodFormat = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
/**
 * A ref through a JSON Pointer with an escaped "/" (valid JSON Schema): llama.cpp looks the token up unescaped
 * and names the ref in its refusal, so the refusal is laid on the format, the only schema holding that ref.
 * `purpose` tells each test's schema apart: a refused schema is remembered (and not sent natively again).
 */
const badFormat = (purpose: string) => ({
  type: 'object',
  description: purpose,
  properties: { answer: { $ref: '#/$defs/short~1answer' } },
  required: ['answer'],
  $defs: { 'short/answer': { type: 'string' } },
});

let llama: FakeInferenceServer;
let gateway: StartedGateway;

beforeAll(async () => {
  llama = await startFakeLlamaServer({ model: scriptedModel('hermes') });
  gateway = await startGateway(
    { providers: { llama: { type: 'openai-compatible', baseUrl: `${llama.url}/v1` } } },
    { detectServers: true },
  );
  await waitForServerDetection(gateway);
});

afterAll(async () => {
  await gateway?.close();
  await llama?.close();
});

const chatBodies = () => llama.bodiesOf('/v1/chat/completions');

function ask(tools: unknown[], schema?: Record<string, unknown>, stream = false) {
  return postJson(`${gateway.baseUrl}/v1/chat/completions`, {
    model: 'llama/Qwen3-8B-Q4_K_M.gguf',
    messages: weatherQuestion,
    tools,
    stream,
    ...(schema ? { response_format: { type: 'json_schema', json_schema: { name: 'report', schema } } } : {}),
  });
}

type Warning = { code: string; message: string };
const warningsOf = (text: string): Warning[] =>
  (JSON.parse(text) as { diagnostics?: { warnings?: Warning[] } }).diagnostics?.warnings ?? [];

type Call = { name: string; arguments: string };
type Outcome = { calls: Call[]; finish: unknown; warnings: Warning[] };

function fromWhole(text: string): Outcome {
  const { choices } = JSON.parse(text) as { choices: { message: { tool_calls?: { function: Call }[] }; finish_reason: unknown }[] };
  const calls = (choices[0]?.message.tool_calls ?? []).map((call) => call.function);
  return { calls, finish: choices[0]?.finish_reason, warnings: warningsOf(text) };
}

type Fragment = { index: number; function?: { name?: string; arguments?: string } };
type StreamChunk = { choices?: { delta?: { tool_calls?: Fragment[] }; finish_reason?: unknown }[]; diagnostics?: { warnings?: Warning[] } };

function fromStream(text: string): Outcome {
  const calls: Call[] = [];
  let finish: unknown;
  let warnings: Warning[] = [];
  for (const chunk of sseChunks(text) as StreamChunk[]) {
    const choice = chunk.choices?.[0];
    for (const fragment of choice?.delta?.tool_calls ?? []) {
      const call = (calls[fragment.index] ??= { name: '', arguments: '' });
      call.name += fragment.function?.name ?? '';
      call.arguments += fragment.function?.arguments ?? '';
    }
    finish = choice?.finish_reason ?? finish;
    warnings = chunk.diagnostics?.warnings ?? warnings;
  }
  return { calls, finish, warnings };
}

describe("llama-server's refusal of a schema", () => {
  it("of the format's, with tools beside it: the format goes into the prompt, named by the refusal's detail", async () => {
    const before = chatBodies().length;
    const answered = await ask([goodTool], badFormat('beside good tools'));
    expect(answered.status).toBe(200);
    expect(
      chatBodies()
        .slice(before)
        .map((body) => 'response_format' in body),
    ).toEqual([true, false]);
    expect(warningsOf(answered.text)).toContainEqual(
      expect.objectContaining({ message: expect.stringContaining('Error resolving ref #/$defs/short~1answer') as string }),
    );
  });

  it("of the format's for a reason naming no part (the parser generator converts the format's schema alone): the tools stay native", async () => {
    const before = chatBodies().length;
    const unanchored = { type: 'object', properties: { answer: { type: 'string', pattern: '\\S' } }, required: ['answer'] };
    const answered = await ask([goodTool], unanchored);
    expect(answered.status).toBe(200);
    expect(
      chatBodies()
        .slice(before)
        .map((body) => ['response_format' in body, Array.isArray(body.tools)]),
    ).toEqual([
      [true, true],
      [false, true],
    ]);
    expect(answered.headers.get('x-tool-calling')).toBe('native');
    expect(fromWhole(answered.text)).toMatchObject({
      calls: [{ name: weatherCall.name, arguments: JSON.stringify(weatherCall.arguments) }],
      finish: 'tool_calls',
    });
    const warnings = warningsOf(answered.text).map((warning) => warning.message);
    expect(warnings).toContainEqual(expect.stringContaining("could not compile the schema of response_format 'report'"));
    expect(warnings).not.toContainEqual(expect.stringContaining("tools' schemas"));
  });

  it("of a tool's, beside a format: the format's grammar alone is built, so the request goes natively", async () => {
    const before = chatBodies().length;
    const answered = await ask([badTool], goodFormat);
    expect(answered.status).toBe(200);
    expect(
      chatBodies()
        .slice(before)
        .map((body) => 'response_format' in body),
    ).toEqual([true]);
  });

  it.each([false, true])(
    "of a tool's, on the request sent again with the format in the prompt (stream: %s): the prompted lane answers with the call",
    async (stream) => {
      const before = chatBodies().length;
      const completionsBefore = llama.bodiesOf('/completion').length;
      const answered = await ask([badTool], badFormat(`stream: ${stream}`), stream);
      expect(answered.status).toBe(200);
      // The format refused, then the tools once the format went into the prompt; then the prompted lane.
      expect(
        chatBodies()
          .slice(before)
          .map((body) => 'response_format' in body),
      ).toEqual([true, false]);
      expect(llama.bodiesOf('/completion').slice(completionsBefore)).toHaveLength(1);
      const { calls, finish, warnings } = stream ? fromStream(answered.text) : fromWhole(answered.text);
      expect({ calls, finish }).toEqual({
        calls: [{ name: weatherCall.name, arguments: JSON.stringify(weatherCall.arguments) }],
        finish: 'tool_calls',
      });
      expect(warnings).toContainEqual(
        expect.objectContaining({ message: expect.stringContaining("Pattern must start with '^' and end with '$'") as string }),
      );
      // Remembered: the same request goes to the prompted lane at once, with no native attempt.
      const again = await ask([badTool], badFormat(`stream: ${stream}`), stream);
      expect(again.status).toBe(200);
      expect(chatBodies().slice(before)).toHaveLength(2);
      expect(llama.bodiesOf('/completion').slice(completionsBefore)).toHaveLength(2);
    },
  );

  it('none for a tool property with a description and no type: it is any value, and the tools go natively', async () => {
    const before = chatBodies().length;
    const answered = await ask([untypedTool]);
    expect(answered.status).toBe(200);
    expect(chatBodies().slice(before)).toHaveLength(1);
    expect(JSON.parse(answered.text).choices[0].message.tool_calls[0].function.name).toBe(weatherCall.name);
    expect(warningsOf(answered.text)).toEqual([]);
  });
});
