/** Cohere's citation tags (`<co>cited text</co: 0:[1,2]>`), removed from text and reasoning, keeping the cited text. */
// Command A / R7B mark grounded spans with `<co>` and a close tag naming the tool results they cite
// (`</co: 0:[1,2],1:[3,4]>`: call 0's results 1 and 2, …); Command R+ wrote `<co: 0>…</co: 0>`.
// Cohere's own output filter (melody, which vLLM's cohere_command parsers run) takes the tags out of
// both content and reasoning and returns the citations apart; Chat Completions has no place for them, so
// only the tags go (vLLM's test cmd3-citations_no_tool_calls: "foo <co>bar</co: 0:[1,2],1:[3,4]>" is
// "foo bar"). A tag is only `<co` or `</co`, then nothing or `:` and indices, then `>`: `<code>` is text.
// @see https://github.com/vllm-project/vllm/blob/main/tests/tool_parsers/test_cohere_command_tool_parser.py
// @see https://github.com/cohere-ai/melody
import type { InlineMarkup, InlineMarkupMatch } from '../shared/inline-markup.js';

const indexCharacters = /[\d\s:,[\]]/;
/** Longer "tags" are text: it bounds what a stream holds back. */
const longestTag = 256;

export const cohereCitations: InlineMarkup = {
  find(text, from) {
    for (let start = text.indexOf('<', from); start >= 0; start = text.indexOf('<', start + 1)) {
      const match = citationTagAt(text, start);
      if (match.type !== 'none') return match;
    }
    return { type: 'none' };
  },
};

function citationTagAt(text: string, start: number): InlineMarkupMatch {
  const partial: InlineMarkupMatch = { type: 'partial', start };
  let position = start + 1;
  if (text[position] === '/') position++;
  for (const letter of 'co') {
    if (position >= text.length) return partial;
    if (text[position] !== letter) return { type: 'none' };
    position++;
  }
  if (position >= text.length) return partial;
  if (text[position] === '>') return { type: 'found', start, end: position + 1 };
  if (text[position] !== ':') return { type: 'none' };
  for (position++; position < text.length && position - start < longestTag; position++) {
    const character = text[position] as string;
    if (character === '>') return { type: 'found', start, end: position + 1 };
    if (!indexCharacters.test(character)) return { type: 'none' };
  }
  return position >= text.length ? partial : { type: 'none' };
}
