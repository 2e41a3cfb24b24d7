/**
 * Property: for any family, reply text and chunking, POST /v1/tool-calls/parse gives exactly what a real
 * streamed Chat Completions reply gives when a fake upstream streams that text in those chunks: the same
 * calls, content, reasoning and diagnostics.
 */
import fc from 'fast-check';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../../helpers/fake-openai-upstream.js';
import { inspectedTools } from './inspected-tools.js';
import { startGateway, testProvider, type StartedGateway } from '../../helpers/start-gateway.js';

const toolFormats = createToolFormatRegistry();
const families = [...toolFormats.keys()];

const tools = inspectedTools;

let upstream: FakeOpenAiUpstream;
let gateway: StartedGateway;

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  // One configured model per family (a per-model `family` override), so both sides pick the same syntax.
  const models = Object.fromEntries(families.map((family) => [`m-${family}`, { family }]));
  gateway = await startGateway({
    providers: { up: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'prompted', models }) },
  });
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

/** Splits as the parse route does: code points, sizes taken in turn. */
function split(text: string, sizes: number[]): string[] {
  const characters = Array.from(text);
  const pieces: string[] = [];
  for (let start = 0, turn = 0; start < characters.length; turn++) {
    const size = sizes[turn % sizes.length] as number;
    pieces.push(characters.slice(start, start + size).join(''));
    start += size;
  }
  return pieces;
}

type Seen = { calls: { name: string; arguments: string }[]; content: string; reasoning: string; diagnostics: unknown };

/** A streamed reply through the real client, folded: what an agent ends up with. */
async function streamedReply(model: string): Promise<Seen> {
  const stream = await gateway.client().chat.completions.create({
    model,
    messages: [{ role: 'user', content: 'go' }],
    tools,
    stream: true,
  });
  const seen: Seen = { calls: [], content: '', reasoning: '', diagnostics: null };
  for await (const chunk of stream) {
    const extra = chunk as unknown as { diagnostics?: unknown };
    if (extra.diagnostics) seen.diagnostics = extra.diagnostics;
    const delta = chunk.choices[0]?.delta as (OpenAI.ChatCompletionChunk.Choice.Delta & { reasoning_content?: string }) | undefined;
    if (!delta) continue;
    seen.content += delta.content ?? '';
    seen.reasoning += delta.reasoning_content ?? '';
    for (const call of delta.tool_calls ?? []) {
      const entry = (seen.calls[call.index] ??= { name: '', arguments: '' });
      entry.name += call.function?.name ?? '';
      entry.arguments += call.function?.arguments ?? '';
    }
  }
  return seen;
}

async function parsed(model: string, text: string, chunking: number[]): Promise<Seen> {
  const response = await fetch(`${gateway.baseUrl}/v1/tool-calls/parse`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, text, tools, chunking }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as Record<string, unknown>;
  const calls = (body.calls as { function: { name: string; arguments: string } }[]).map((call) => call.function);
  return { calls, content: body.content as string, reasoning: body.reasoning as string, diagnostics: body.diagnostics };
}

/** A reply in the family's own syntax: prose, calls (offered or not), reasoning markup, cut anywhere. */
const replyText = (family: string) => {
  const format = toolFormats.get(family);
  const call = fc.record({
    name: fc.constantFrom('get_weather', 'read_file', 'launch_rockets'),
    arguments: fc.dictionary(fc.constantFrom('city', 'days', 'path'), fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), { maxKeys: 2 }),
  });
  const piece = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom('<think>Hmm.</think>', '\n', '{"name": "x"}', '<tool_call>', '```json\n'),
    call.map((value) => format?.renderCall({ name: value.name, arguments: JSON.stringify(value.arguments) }) ?? ''),
  );
  return fc.tuple(fc.array(piece, { minLength: 1, maxLength: 4 }), fc.option(fc.nat(), { nil: undefined })).map(([pieces, cut]) => {
    const whole = pieces.join('');
    // A reply cut off mid-way (max_tokens) must be read the same way too.
    return cut === undefined ? whole : whole.slice(0, cut % (whole.length + 1));
  });
};

describe('POST /v1/tool-calls/parse against a real reply', () => {
  it('gives the same calls, content, reasoning and diagnostics for any family, text and chunking', async () => {
    const sample = fc.constantFrom(...families).chain((family) =>
      fc.record({
        family: fc.constant(family),
        text: replyText(family),
        chunking: fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 5 }),
      }),
    );
    let withCalls = 0;
    let withDiagnostics = 0;
    await fc.assert(
      fc.asyncProperty(sample, async ({ family, text, chunking }) => {
        const model = `up/m-${family}`;
        upstream.enqueue({ type: 'chat', content: split(text, chunking) });
        const reply = await streamedReply(model);
        expect(await parsed(model, text, chunking)).toEqual(reply);
        if (reply.calls.length > 0) withCalls++;
        if (reply.diagnostics !== null) withDiagnostics++;
      }),
      { numRuns: 100 },
    );
    // The samples reach both sides of the parser: calls parsed back, and calls refused or cut off.
    expect(withCalls).toBeGreaterThan(0);
    expect(withDiagnostics).toBeGreaterThan(0);
  }, 120_000);
});
