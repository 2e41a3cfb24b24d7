/**
 * What a scripted model generates (as tokens) and how each server turns those tokens back into text: the
 * special-token rules of vLLM's detokenizers and of llama.cpp's `common_token_to_piece`.
 */
import type { ScriptedCall, ScriptedModel } from './scripted-models.js';

export type Token = { text: string; special: boolean; added: boolean };

/** The call every scripted model makes when it is offered the tool (the matrix asks for the weather). */
export const weatherCall: ScriptedCall = { name: 'get_weather', arguments: { city: 'Paris' } };

/** The calls `model` makes when offered the tool. */
export const callsOf = (model: ScriptedModel): readonly ScriptedCall[] => model.calls ?? [weatherCall];

/** Characters per ordinary token: close enough to BPE for streaming, small enough to split markers' neighbours. */
const tokenLength = 4;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const splitters = new WeakMap<ScriptedModel, { pattern: RegExp; added: ReadonlySet<string> }>();

/** Cuts text into the model's added tokens (whole) and short ordinary tokens, as its tokenizer would. */
export function tokenize(model: ScriptedModel, text: string): Token[] {
  let splitter = splitters.get(model);
  if (!splitter) {
    const added = [...model.tokens.added].sort((left, right) => right.length - left.length);
    splitter = { pattern: new RegExp(`(${added.map(escapeRegExp).join('|')})`), added: new Set(added) };
    splitters.set(model, splitter);
  }
  const tokens: Token[] = [];
  for (const part of text.split(splitter.pattern)) {
    if (part === '') continue;
    if (splitter.added.has(part)) {
      tokens.push({ text: part, special: model.tokens.special.has(part), added: true });
      continue;
    }
    const characters = Array.from(part);
    for (let index = 0; index < characters.length; index += tokenLength)
      tokens.push({ text: characters.slice(index, index + tokenLength).join(''), special: false, added: false });
  }
  return tokens;
}

export type Generation = {
  /** Whether the model wrote the call (it saw the tool) or its plain answer. */
  called: boolean;
  /** Every generated token, the stop token last. */
  tokens: Token[];
};

/** The model calls the tool when the tool reached its prompt (as a structured tool, or named in the text). */
export function generate(model: ScriptedModel, sawTool: boolean): Generation {
  const calls = callsOf(model);
  const written = calls.length === 1 || !model.writeCalls ? calls.map((call) => model.writeCall(call)).join('') : model.writeCalls(calls);
  const text = sawTool ? model.preamble + written : model.answer;
  const end = sawTool ? model.endOfCall : model.endOfAnswer;
  return { called: sawTool, tokens: [...tokenize(model, text), ...tokenize(model, end)] };
}

/** The text of an OpenAI chat request's messages (what a template would put in the prompt besides tools). */
export function messagesText(body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages) ? (body.messages as Record<string, unknown>[]) : [];
  return messages
    .map((message) => {
      const content = message.content;
      if (typeof content === 'string') return content;
      if (Array.isArray(content)) return content.map((part) => (part as { text?: string }).text ?? '').join('');
      return '';
    })
    .join('\n');
}

/** The names of the tools in an OpenAI-shaped (or Ollama-shaped) `tools` array. */
export function toolNames(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  return tools.map((tool) => (tool as { function?: { name?: string } }).function?.name ?? '').filter(Boolean);
}

export type VllmDecoding = { skipSpecialTokens: boolean; spacesBetweenSpecialTokens: boolean };

/**
 * vLLM's incremental detokenizers, as deltas, one per token (the stop token is never decoded:
 * `IncrementalDetokenizer.update` drops it unless `include_stop_str_in_output`), in
 * https://github.com/vllm-project/vllm/blob/main/vllm/v1/engine/detokenizer.py:
 * - fast tokenizers use `tokenizers.DecodeStream(skip_special_tokens)`; byte-level BPE adds no spaces, so
 *   `spaces_between_special_tokens` changes nothing for them;
 * - slow tokenizers go through `_convert_tokens_to_string_with_added_encoders`
 *   (vllm/tokenizers/detokenizer_utils.py): skipped special tokens vanish without cutting the text, every
 *   other added token is its own piece, and the pieces are joined with " " while
 *   `spaces_between_special_tokens` is true (its default);
 * - mistral-common keeps `[TOOL_CALLS]` and the think tokens when skipping and drops the rest, `[ARGS]`
 *   included (vllm/tokenizers/mistral.py, `convert_ids_to_tokens`).
 */
export function vllmDeltas(model: ScriptedModel, generation: Generation, decoding: VllmDecoding): string[] {
  const tokens = generation.tokens.slice(0, -1);
  const deltas: string[] = [];
  let previous = '';
  for (let count = 1; count <= tokens.length; count++) {
    const text = vllmText(model, tokens.slice(0, count), decoding);
    deltas.push(text.slice(previous.length));
    previous = text;
  }
  return deltas.filter((delta) => delta !== '');
}

const mistralKeptWhenSkipping = new Set(['[TOOL_CALLS]', '[THINK]', '[/THINK]']);

function vllmText(model: ScriptedModel, tokens: Token[], decoding: VllmDecoding): string {
  switch (model.detokenizer) {
    case 'fast':
      return tokens
        .filter((token) => !(decoding.skipSpecialTokens && token.special))
        .map((token) => token.text)
        .join('');
    case 'mistral':
      return tokens
        .filter((token) => !(decoding.skipSpecialTokens && token.special && !mistralKeptWhenSkipping.has(token.text)))
        .map((token) => token.text)
        .join('');
    case 'slow': {
      const pieces: string[] = [];
      let current = '';
      for (const token of tokens) {
        if (decoding.skipSpecialTokens && token.special) continue;
        if (!token.added) {
          current += token.text;
          continue;
        }
        if (current !== '') pieces.push(current);
        current = '';
        pieces.push(token.text);
      }
      if (current !== '') pieces.push(current);
      return pieces.join(decoding.spacesBetweenSpecialTokens ? ' ' : '');
    }
  }
}

/**
 * llama.cpp's pieces: a special token's text is rendered only when the server runs with `--special` or the
 * token is one of the request's preserved tokens (`accept_special_token`, tools/server/server-context.cpp).
 * The end-of-generation token is a generated token like any other: with `--special` its text arrives too.
 */
export function llamaCppPieces(generation: Generation, options: { special: boolean; preserved?: ReadonlySet<string> }): string[] {
  return generation.tokens
    .filter((token) => !token.special || options.special || options.preserved?.has(token.text))
    .map((token) => token.text);
}
