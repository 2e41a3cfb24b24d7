/** What Mistral's call markup leaves when a server strips its control tokens: `NAME{…}`, or a bare call list. */
// `[TOOL_CALLS]`, `[ARGS]` and `[CALL_ID]` are control tokens of the Tekken tokenizer, so
// `[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}` arrives as `get_weather{"city": "Paris"}`, and the
// older `[TOOL_CALLS][{"name": …, "arguments": …}]` as the bare list. Read only where a call stands
// alone: a reply that starts with an offered tool's name and a JSON object (or a list whose first call
// names an offered tool), and the same right after a call so read, for the next call of the turn.
// @see https://github.com/mistralai/mistral-common/blob/main/src/mistral_common/tokens/tokenizers/base.py (SpecialTokens)
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/mistral_tool_parser.py
import { more, none, readCallHead, readObjectOpening, readSpaces } from '../shared/residue-reading.js';
import type { ResidueMatch, StrippedResidue } from '../shared/stripped-residue.js';
import type { ToolRoster } from '../shared/tool-roster.js';

const toolCalls = '[TOOL_CALLS]';
/** Mistral Small 3.2 writes `NAME[CALL_ID]ID[ARGS]{…}`, nine alphanumerics. */
const callIdLength = 9;

export const mistralResidue: StrippedResidue = {
  triggers: [],
  read(text, from, { site, roster }) {
    if (site === 'trigger') return { type: 'none' };
    const start = site === 'reply-start' ? readSpaces(text, from) : from;
    if (start < 0 || start >= text.length) return start === none ? { type: 'none' } : { type: 'more' };
    const leading = text.slice(from, start);
    if (text.charCodeAt(start) === 0x5b) {
      const head = readCallHead(text, start, roster);
      if (head === more) return { type: 'more' };
      if (head === none) return { type: 'none' };
      return { type: 'residue', length: start - from, evidence: text.slice(start, head), restored: leading + toolCalls, afterValue: '' };
    }
    return namedCall(text, from, start, roster);
  },
};

/** `NAME{` or `NAME` + nine alphanumerics + `{` for an offered NAME (the longest that fits). */
function namedCall(text: string, from: number, start: number, roster: ToolRoster): ResidueMatch {
  let waiting = false;
  let best: { name: string; id: string; brace: number } | undefined;
  for (const { name } of roster.tools) {
    const available = text.length - start;
    if (available <= name.length) {
      if (name.startsWith(text.slice(start))) waiting = true;
      continue;
    }
    if (!text.startsWith(name, start)) continue;
    const after = start + name.length;
    const brace = callBrace(text, after);
    if (brace === more) waiting = true;
    else if (brace >= 0 && (best === undefined || name.length > best.name.length)) best = { name, id: text.slice(after, brace), brace };
  }
  if (waiting) return { type: 'more' };
  if (best === undefined) return { type: 'none' };
  const restored = text.slice(from, start) + toolCalls + best.name + (best.id === '' ? '' : `[CALL_ID]${best.id}`) + '[ARGS]';
  return { type: 'residue', length: best.brace - from, evidence: text.slice(start, best.brace + 1), restored, afterValue: '' };
}

/** The `{` opening an object right after a name, or after a nine-character call id. */
function callBrace(text: string, index: number): number {
  if (text.charCodeAt(index) === 0x7b) return readObjectOpening(text, index);
  for (let offset = 0; offset < callIdLength; offset++) {
    if (index + offset >= text.length) return more;
    if (!/[A-Za-z0-9]/.test(text.charAt(index + offset))) return none;
  }
  const brace = index + callIdLength;
  if (brace >= text.length) return more;
  return text.charCodeAt(brace) === 0x7b ? readObjectOpening(text, brace) : none;
}
