/**
 * The matrix families' replies as servers decode them, beyond the one call the real-server matrix asks for:
 * text before the call, parallel calls, an argument holding the family's own markers, each read by the
 * family's parser whole, split in two at every character, and one character at a time.
 */
// The model's tokens and the servers' decoding are the fakes' (test/helpers/scripted-generation.ts): vLLM
// keeping special tokens (what the prompted lane asks for), vLLM's default (skipping them, spaces between
// added tokens for slow tokenizers), and llama-server without `--special` (dropping them).
import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../src/core/index.js';
import { llamaCppPieces, tokenize, vllmDeltas, type Token } from '../helpers/scripted-generation.js';
import { scriptedModels, type ScriptedCall, type ScriptedModel } from '../helpers/scripted-models.js';
import { createToolFormatRegistry } from '../../tool-formats/index.js';

const registry = createToolFormatRegistry();
const tools: ToolDefinition[] = [
  { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
  { name: 'get_time', parameters: { type: 'object', properties: { zone: { type: 'string' } } } },
];
const weather: ScriptedCall = { name: 'get_weather', arguments: { city: 'Paris' } };
const time: ScriptedCall = { name: 'get_time', arguments: { zone: 'UTC' } };

type Decoding = 'vLLM keeping special tokens' | "vLLM's default" | 'llama-server without --special';
const decodings: readonly Decoding[] = ['vLLM keeping special tokens', "vLLM's default", 'llama-server without --special'];

function decode(model: ScriptedModel, text: string, decoding: Decoding): string {
  // The stop token ends the generation; no server passes it on as text.
  const tokens: Token[] = [...tokenize(model, text), ...tokenize(model, model.endOfCall)];
  const generation = { called: true, tokens };
  if (decoding === 'llama-server without --special')
    return llamaCppPieces({ called: true, tokens: tokens.slice(0, -1) }, { special: false }).join('');
  const keep = decoding === 'vLLM keeping special tokens';
  return vllmDeltas(model, generation, { skipSpecialTokens: !keep, spacesBetweenSpecialTokens: !keep }).join('');
}

/** The calls and text the family's parser reads from the pieces. */
function read(family: string, pieces: readonly string[]): { calls: string[]; text: string } {
  const parser = registry.get(family)!.createParser(tools, {});
  const events = [...pieces.flatMap((piece) => parser.push(piece)), ...parser.finish()];
  return {
    calls: events.flatMap((event) => (event.type === 'tool-call' ? [`${event.name} ${event.arguments}`] : [])),
    text: events.flatMap((event) => (event.type === 'text' ? [event.text] : [])).join(''),
  };
}

/** Several calls in one turn, as each family writes them; Harmony's turn ends at its first call's `<|call|>`. */
const parallelCalls: Record<string, (model: ScriptedModel) => string> = {
  // mistral-common's InstructTokenizerV11 encodes each call with its own [TOOL_CALLS].
  mistral: (model) => model.writeCall(weather) + model.writeCall(time),
  // vLLM's kimi_k2_tool_parser.py: one section, the calls numbered over the conversation.
  'kimi-k2': () =>
    '<|tool_calls_section_begin|>' +
    '<|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|>' +
    '<|tool_call_begin|>functions.get_time:1<|tool_call_argument_begin|>{"zone": "UTC"}<|tool_call_end|>' +
    '<|tool_calls_section_end|>',
  // vLLM's granite_tool_parser.py: one JSON list.
  granite: () =>
    '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "get_time", "arguments": {"zone": "UTC"}}]',
  // vLLM's llama_tool_parser.py: objects separated by "; ".
  llama3: () =>
    '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}; {"name": "get_time", "parameters": {"zone": "UTC"}}',
  // One action per call (the family's prompt), as Qwen's template writes one <tool_call> per call.
  internlm: (model) => model.writeCall(weather) + model.writeCall(time),
  hermes: (model) => `${model.writeCall(weather)}\n${model.writeCall(time)}`,
};

type Case = { name: string; text: string; calls: string[]; decodings: readonly Decoding[] };

function casesOf(model: ScriptedModel): Case[] {
  const weatherRead = 'get_weather {"city":"Paris"}';
  const cases: Case[] = [
    { name: 'the preamble, then a call', text: model.preamble + model.writeCall(weather), calls: [weatherRead], decodings },
  ];
  // Harmony's text lives in channels: text before a call is its preamble's analysis message.
  if (model.family !== 'harmony') {
    // Stripped by llama-server, Mistral's call after text is `text.get_weather{…}`: read only where a call
    // stands alone (mistral-residue.ts), as a sentence may name a tool.
    const afterText = model.family === 'mistral' ? decodings.slice(0, 2) : decodings;
    cases.push(
      { name: 'text glued to a call', text: `Let me check that.${model.writeCall(weather)}`, calls: [weatherRead], decodings: afterText },
      {
        name: 'text, a blank line, a call',
        text: `Let me check that.\n\n${model.writeCall(weather)}`,
        calls: [weatherRead],
        decodings: afterText,
      },
    );
  }
  const parallel = parallelCalls[model.family];
  if (parallel !== undefined)
    cases.push({ name: 'two parallel calls', text: parallel(model), calls: [weatherRead, 'get_time {"zone":"UTC"}'], decodings });
  // A server that strips special tokens strips them from the argument too: only the kept decoding can carry them.
  const markers = [...model.tokens.added].filter((token) => token.length > 2).join(' ');
  const withMarkers: ScriptedCall = { name: 'get_weather', arguments: { city: `Paris ${markers} "quoted" \\ end` } };
  cases.push({
    name: "an argument holding the family's own markers",
    text: model.writeCall(withMarkers),
    calls: [`get_weather ${JSON.stringify(withMarkers.arguments)}`],
    decodings: decodings.slice(0, 1),
  });
  return cases;
}

describe.each(scriptedModels)('$family', (model) => {
  const rows = casesOf(model).flatMap((entry) => entry.decodings.map((decoding) => ({ ...entry, decoding })));
  it.each(rows)('$name, $decoding: the calls, whole, split anywhere, and one character at a time', ({ text, decoding, calls }) => {
    const decoded = decode(model, text, decoding);
    const whole = read(model.family, [decoded]);
    expect(whole.calls, JSON.stringify(decoded)).toEqual(calls);
    const characters = Array.from(decoded);
    for (let cut = 1; cut < characters.length; cut++)
      expect(read(model.family, [characters.slice(0, cut).join(''), characters.slice(cut).join('')]), `cut at ${cut}`).toEqual(whole);
    expect(read(model.family, characters)).toEqual(whole);
  });
});
