/** What Harmony leaves when a server strips gpt-oss's special tokens, read back as channels and calls. */
// Every Harmony token is special, so `<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant
// <|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{…}<|call|>` arrives as
// `analysisNeed the weather.assistantcommentary to=functions.get_weather json{…}`. A reply of a model of
// this family always begins with its first channel's name (the template ends in `<|start|>assistant`), so
// a reply that begins with one glued to its text, or with a recipient, is read as stripped Harmony; from
// then on `assistant` glued to a channel name or a recipient starts the next message. The markers are put
// back and the family's parser reads them as ever (a recipient that is no offered tool is rejected there).
// @see https://github.com/openai/harmony/blob/main/docs/format.md
// @see https://github.com/vllm-project/vllm/blob/main/vllm/entrypoints/openai/chat_completion/protocol.py (skip_special_tokens)
import { more, readLiteral } from '../shared/residue-reading.js';
import type { ResidueMatch, StrippedResidue } from '../shared/stripped-residue.js';
import type { ToolRoster } from '../shared/tool-roster.js';

const channels = ['analysis', 'final', 'commentary'] as const;
const nextMessage = '<|end|><|start|>assistant';
const recipientLead = ' to=';

/** A recipient, the header words after it (the channel in the role header, the content type), then `{`. */
const recipient = /([^\s{}<>"'`]{1,160})((?:\s{0,4}[A-Za-z]{1,12}){0,2})\s{0,4}\{/y;
const recipientPrefix = /[^\s{}<>"'`]{0,160}(?:\s{0,4}[A-Za-z]{0,12}){0,2}\s{0,4}$/y;
/** Header words that the stripped tokens left glued to the recipient (`get_weathercommentary json`). */
const gluedHeaderWords = ['json', 'commentary', 'analysis'];

export const harmonyResidue: StrippedResidue = {
  triggers: ['assistant'],
  read(text, from, { site, roster, seen }) {
    switch (site) {
      case 'reply-start': {
        // The template's `<|start|>assistant` may be followed by the recipient (role-header form).
        const lead = text.charCodeAt(from) === 0x20 ? from + 1 : from;
        const to = readLiteral(text, lead, 'to=');
        if (to === more) return { type: 'more' };
        if (to >= 0) return call(text, from, to, roster, '');
        return message(text, from, from, roster, '', false);
      }
      case 'trigger': {
        if (!seen) return { type: 'none' };
        const after = from + 'assistant'.length;
        const to = readLiteral(text, after, recipientLead);
        if (to === more) return { type: 'more' };
        if (to >= 0) return call(text, from, to, roster, nextMessage);
        return message(text, from, after, roster, nextMessage, true);
      }
      case 'after-call':
        return { type: 'none' };
    }
  },
};

/** A channel name at `at`: a recipient after it makes a call; otherwise its message's text follows. */
function message(text: string, from: number, at: number, roster: ToolRoster, prefix: string, inReply: boolean): ResidueMatch {
  let waiting = false;
  for (const channel of channels) {
    const end = readLiteral(text, at, channel);
    if (end === more) waiting = true;
    if (end < 0) continue;
    if (end >= text.length) return { type: 'more' };
    const to = readLiteral(text, end, recipientLead);
    if (to === more) return { type: 'more' };
    if (to >= 0 && channel !== 'final') return call(text, from, to, roster, prefix);
    // A channel name before `<|message|>` is Harmony with its tokens (the template's header); at the
    // reply's start the text must be glued to the name, as no sentence is ("finally" is not).
    const next = text.charCodeAt(end);
    if (next === 0x3c || (!inReply && !isGluedText(next))) return { type: 'none' };
    return {
      type: 'residue',
      length: end - from,
      evidence: text.slice(from, end + 1),
      restored: `${prefix}<|channel|>${channel}<|message|>`,
    };
  }
  return waiting ? { type: 'more' } : { type: 'none' };
}

/** `to=RECIPIENT [words]{`, from the `to=` read up to `at`. */
function call(text: string, from: number, at: number, roster: ToolRoster, prefix: string): ResidueMatch {
  recipient.lastIndex = at;
  const match = recipient.exec(text);
  if (match === null) {
    recipientPrefix.lastIndex = at;
    return recipientPrefix.test(text) ? { type: 'more' } : { type: 'none' };
  }
  const brace = at + match[0].length - 1;
  return {
    type: 'residue',
    length: brace - from,
    evidence: text.slice(from, brace + 1),
    restored: `${prefix}<|channel|>commentary to=${recipientName(match[1] ?? '', roster)} <|constrain|>json<|message|>`,
    afterValue: '<|call|>',
  };
}

/** The recipient without the header words glued to it, down to the first form that names an offered tool. */
function recipientName(token: string, roster: ToolRoster): string {
  let name = token;
  for (;;) {
    if (roster.resolve(name) !== undefined) return name;
    const word = gluedHeaderWords.find((candidate) => name.endsWith(candidate) && name.length > candidate.length);
    if (word === undefined) return name;
    name = name.slice(0, -word.length);
  }
}

/** Not a space, a lowercase letter or the punctuation that follows a word in a sentence. */
function isGluedText(code: number): boolean {
  const character = String.fromCharCode(code);
  return !/[\sa-z.,:;!?)\]'’-]/.test(character);
}
