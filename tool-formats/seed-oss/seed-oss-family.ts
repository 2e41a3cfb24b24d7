/** The seed-oss family (ByteDance Seed-OSS): `<seed:tool_call><function=NAME><parameter=KEY>v</parameter>…` calls. */
// Read: Qwen3-Coder's function blocks inside `<seed:tool_call>`, several blocks or wrappers for several
// calls, `<seed:think>…</seed:think>` reasoning (a call quoted there is reasoning, not a call). Values
// are raw text converted with the tool's schema. The template writes `<parameter=K>V</parameter>` with
// nothing around V, so a value's edge whitespace is its own (code ending in a newline keeps it); but a
// value framed by a newline on both sides, `<parameter=K>\nV\n</parameter>` as Qwen3-Coder writes it, is V:
// llama.cpp's tests read `<parameter=input>\ntest\n</parameter>` as "test" and vLLM's seed_oss parser drops
// both newlines (it drops either one alone too, which would eat the last newline of code).
// Written: the template's layout; results as tagged blocks in a user turn, because the template gives
// them a `tool` turn of their own, which a user turn cannot open.
// @see https://github.com/ggml-org/llama.cpp/blob/master/common/chat-parsers/seed-oss.cpp
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/seed_oss_tool_parser.py
import { taggedEnvelope, type ValueSpan } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { rawArgumentEntries } from '../shared/format-json.js';
import type { CallRenderer } from '../shared/tool-prompt.js';
import { taggedResults } from '../shared/tool-result-text.js';
import {
  functionBlocksGrammar,
  functionClose,
  functionOpen,
  lineParameterOpen,
  parameterClose,
  parameterOpen,
} from '../shared/function-block-grammar.js';
import { placeSeedOssToolPrompt, seedOssPromptWording } from './seed-oss-prompt.js';

const family = 'seed-oss';
export const seedToolCallOpen = '<seed:tool_call>';
export const seedToolCallClose = '</seed:tool_call>';

/** A line break right inside both tags is layout, not value; CRLF inside a value stays CRLF, as written. */
function dropNewlineFrame(raw: string): string {
  const lead = raw.startsWith('\r\n') ? 2 : raw.startsWith('\n') ? 1 : 0;
  const trail = raw.endsWith('\r\n') ? 2 : raw.endsWith('\n') ? 1 : 0;
  return lead > 0 && trail > 0 && raw.length >= lead + trail ? raw.slice(lead, raw.length - trail) : raw;
}

const seedOssFunctionGrammar = functionBlocksGrammar('seed-oss-xml', { wrapperClose: seedToolCallClose, valueText: dropNewlineFrame });

/** Code in a value may hold `</seed:tool_call>`; only its own `</parameter>` ends it. */
const parameterValues: readonly ValueSpan[] = [{ open: parameterOpen, close: parameterClose, nested: lineParameterOpen }];

/** The template's layout: strings as they are, other values as JSON, one parameter per line. */
export const renderSeedOssCall: CallRenderer = (call) => {
  const parameters = rawArgumentEntries(call.arguments).map(([key, value]) => `${parameterOpen}${key}>${value}${parameterClose}\n`);
  return `${seedToolCallOpen}\n${functionOpen}${call.name}>\n${parameters.join('')}${functionClose}\n${seedToolCallClose}`;
};

export const seedOssFamily: FamilySpec = {
  family,
  envelopes: [taggedEnvelope(family, seedToolCallOpen, seedToolCallClose, [seedOssFunctionGrammar], { valueSpans: parameterValues })],
  reasoningTags: [{ open: '<seed:think>', close: '</seed:think>' }],
  // The end-of-turn token, when the server does not strip special tokens.
  framingTokens: ['<seed:eos>'],
  prompt: seedOssPromptWording,
  placeToolPrompt: placeSeedOssToolPrompt,
  renderCall: renderSeedOssCall,
  renderResults: taggedResults('<tool_response>', '</tool_response>'),
};
