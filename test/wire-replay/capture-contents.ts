/**
 * What a recorded capture carries (text, reasoning, calls, usage, finish, error), read straight from its
 * bytes and independently of the gateway's adapters, so that replay tests take every expected value
 * from the capture itself rather than from numbers written beside it.
 */
import type { WireFixture } from '../helpers/replay-upstream.js';

export type CapturedCall = { id: string | undefined; name: string; arguments: unknown };

export type CaptureContents = {
  text: string;
  /**
   * A declined request: OpenAI's `refusal` member (the model's words, instead of content), or Claude's
   * `stop_details.explanation` (beside whatever text it wrote). Chat clients get it in `refusal`.
   */
  refusal: string;
  reasoning: string;
  /** Anthropic's opaque thinking signature, which multi-turn thinking needs back. */
  reasoningSignature: string;
  calls: CapturedCall[];
  usage: { promptTokens: number; completionTokens: number } | undefined;
  /** The finish reason a Chat Completions client should see (`stop`, `tool_calls`, `length`, `content_filter`). */
  finishReason: string | undefined;
  /** The server's own finish value (Anthropic's `stop_reason`, Gemini's `finishReason`, …). */
  rawFinish: string | undefined;
  /** The message of an error the server reported in the body. */
  error: string | undefined;
};

type Json = Record<string, unknown>;

/** The `data` payloads of an SSE body (any line ending; an unterminated last event counts, as SDKs count it). */
function sseData(text: string): string[] {
  const payloads: string[] = [];
  let lines: string[] = [];
  for (const line of [...text.split(/\r\n|\r|\n/), '']) {
    if (line === '') {
      if (lines.length) payloads.push(lines.join('\n'));
      lines = [];
    } else if (line.startsWith('data:')) lines.push(line.slice(line.startsWith('data: ') ? 6 : 5));
  }
  return payloads;
}

function jsonPayloads(fixture: WireFixture): Json[] {
  if (fixture.delivery === 'whole') return [JSON.parse(fixture.text) as Json];
  if (fixture.name.endsWith('.ndjson'))
    return fixture.text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Json);
  return sseData(fixture.text)
    .filter((payload) => payload !== '[DONE]')
    .map((payload) => JSON.parse(payload) as Json);
}

function emptyContents(): CaptureContents {
  return {
    text: '',
    refusal: '',
    reasoningSignature: '',
    reasoning: '',
    calls: [],
    usage: undefined,
    finishReason: undefined,
    rawFinish: undefined,
    error: undefined,
  };
}

function parseArguments(text: string): unknown {
  return text === '' ? {} : JSON.parse(text);
}

function readOpenAiChat(payloads: Json[], contents: CaptureContents): void {
  const calls: { id?: string; name: string; arguments: string }[] = [];
  for (const payload of payloads) {
    if (payload.error) contents.error = String((payload.error as Json).message ?? payload.error);
    const usage = payload.usage as Json | undefined;
    if (usage) contents.usage = { promptTokens: Number(usage.prompt_tokens), completionTokens: Number(usage.completion_tokens) };
    // Only the first choice: the gateway serves one.
    const choice = (payload.choices as Json[] | undefined)?.find((candidate) => (candidate.index ?? 0) === 0);
    if (!choice) continue;
    const delta = (choice.delta ?? choice.message ?? {}) as Json;
    if (typeof delta.content === 'string') contents.text += delta.content;
    if (typeof delta.refusal === 'string') contents.refusal += delta.refusal;
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (typeof reasoning === 'string') contents.reasoning += reasoning;
    for (const [position, fragment] of ((delta.tool_calls as Json[] | undefined) ?? []).entries()) {
      const index = typeof fragment.index === 'number' ? fragment.index : position;
      const call = (calls[index] ??= { name: '', arguments: '' });
      const named = fragment.function as Json | undefined;
      if (typeof fragment.id === 'string') call.id = fragment.id;
      if (typeof named?.name === 'string') call.name += named.name;
      if (typeof named?.arguments === 'string') call.arguments += named.arguments;
    }
    if (typeof choice.finish_reason === 'string') contents.finishReason = contents.rawFinish = choice.finish_reason;
  }
  contents.calls = calls.map((call) => ({ id: call.id, name: call.name, arguments: parseArguments(call.arguments) }));
}

const anthropicFinish: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  refusal: 'content_filter',
};

function readAnthropicUsage(usage: Json | undefined, into: { input: number; output: number }): void {
  if (!usage) return;
  const input = ['input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'].filter((key) => typeof usage[key] === 'number');
  if (input.length) into.input = input.reduce((sum, key) => sum + Number(usage[key]), 0);
  if (typeof usage.output_tokens === 'number') into.output = usage.output_tokens;
}

function readAnthropicMessages(payloads: Json[], contents: CaptureContents): void {
  const counts = { input: Number.NaN, output: Number.NaN };
  const inputs: string[] = [];
  const blocks = (payloads[0]?.type === 'message' ? [{ type: 'message', message: payloads[0] }] : payloads) as Json[];
  for (const event of blocks) {
    const message = event.message as Json | undefined;
    if (event.type === 'error') contents.error = String((event.error as Json).message);
    readAnthropicUsage((message?.usage ?? event.usage) as Json | undefined, counts);
    const stopReason = (message?.stop_reason ?? (event.delta as Json | undefined)?.stop_reason) as string | null | undefined;
    if (typeof stopReason === 'string') contents.rawFinish = stopReason;
    const stopDetails = (message?.stop_details ?? (event.delta as Json | undefined)?.stop_details) as Json | null | undefined;
    if (typeof stopDetails?.explanation === 'string') contents.refusal = stopDetails.explanation;
    const started = [...((message?.content as Json[] | undefined) ?? []), ...(event.content_block ? [event.content_block as Json] : [])];
    for (const block of started) {
      if (block.type === 'text') contents.text += String(block.text);
      if (block.type === 'thinking') contents.reasoning += String(block.thinking);
      if (block.type === 'tool_use') {
        contents.calls.push({ id: block.id as string, name: block.name as string, arguments: block.input });
        inputs.push('');
      }
    }
    const delta = event.type === 'content_block_delta' ? (event.delta as Json) : undefined;
    if (delta?.type === 'text_delta') contents.text += String(delta.text);
    if (delta?.type === 'thinking_delta') contents.reasoning += String(delta.thinking);
    if (delta?.type === 'signature_delta') contents.reasoningSignature += String(delta.signature);
    if (delta?.type === 'input_json_delta') inputs[inputs.length - 1] += String(delta.partial_json);
  }
  // A streamed tool_use block starts with `input: {}` and gets its input from the deltas.
  for (const [index, text] of inputs.entries()) if (text !== '') (contents.calls[index] as CapturedCall).arguments = JSON.parse(text);
  if (!Number.isNaN(counts.input) && !Number.isNaN(counts.output))
    contents.usage = { promptTokens: counts.input, completionTokens: counts.output };
  if (contents.rawFinish) contents.finishReason = anthropicFinish[contents.rawFinish] ?? 'stop';
}

function readOllamaChat(payloads: Json[], contents: CaptureContents): void {
  let done = false;
  for (const payload of payloads) {
    if (typeof payload.error === 'string') contents.error = payload.error;
    const message = payload.message as Json | undefined;
    if (typeof message?.content === 'string') contents.text += message.content;
    if (typeof message?.thinking === 'string') contents.reasoning += message.thinking;
    for (const call of (message?.tool_calls as Json[] | undefined) ?? []) {
      const named = call.function as Json;
      contents.calls.push({ id: call.id as string | undefined, name: named.name as string, arguments: named.arguments });
    }
    if (payload.done === true) {
      done = true;
      contents.rawFinish = payload.done_reason as string | undefined;
      contents.usage = { promptTokens: Number(payload.prompt_eval_count), completionTokens: Number(payload.eval_count) };
    }
  }
  // Ollama says `stop` (or nothing, before `done_reason` existed) for tool calls too.
  if (done) contents.finishReason = contents.rawFinish === 'length' ? 'length' : contents.calls.length ? 'tool_calls' : 'stop';
}

function readGeminiGenerate(payloads: Json[], contents: CaptureContents): void {
  for (const payload of payloads) {
    const candidate = (payload.candidates as Json[] | undefined)?.[0];
    for (const part of ((candidate?.content as Json | undefined)?.parts as Json[] | undefined) ?? []) {
      if (typeof part.text === 'string') contents[part.thought === true ? 'reasoning' : 'text'] += part.text;
      const call = part.functionCall as Json | undefined;
      if (call) contents.calls.push({ id: call.id as string | undefined, name: call.name as string, arguments: call.args ?? {} });
    }
    if (typeof candidate?.finishReason === 'string') contents.rawFinish = candidate.finishReason;
    // Usage on every chunk is cumulative: the last one counts. Output includes the thoughts, as completion_tokens does.
    const usage = payload.usageMetadata as Json | undefined;
    if (usage)
      contents.usage = {
        promptTokens: Number(usage.promptTokenCount),
        completionTokens: Number(usage.candidatesTokenCount ?? 0) + Number(usage.thoughtsTokenCount ?? 0),
      };
  }
  const geminiFinish: Record<string, string> = {
    STOP: contents.calls.length ? 'tool_calls' : 'stop',
    MAX_TOKENS: 'length',
    SAFETY: 'content_filter',
  };
  if (contents.rawFinish) contents.finishReason = geminiFinish[contents.rawFinish] ?? 'stop';
}

export function captureContents(fixture: WireFixture): CaptureContents {
  const contents = emptyContents();
  const payloads = jsonPayloads(fixture);
  switch (fixture.protocol) {
    case 'openai-chat':
      readOpenAiChat(payloads, contents);
      break;
    case 'anthropic-messages':
      readAnthropicMessages(payloads, contents);
      break;
    case 'ollama-chat':
      readOllamaChat(payloads, contents);
      break;
    case 'gemini-generate':
      readGeminiGenerate(payloads, contents);
      break;
  }
  return contents;
}

/** The model a capture names, for the request that replays it (some servers send an empty one). */
export function capturedModel(fixture: WireFixture): string | undefined {
  const first = jsonPayloads(fixture)[0];
  const model = (first?.model ?? (first?.message as Json | undefined)?.model ?? first?.modelVersion) as string | undefined;
  return model || undefined;
}
