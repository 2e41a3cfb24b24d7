/** Body grammars: how the text inside a call envelope is read (JSON, Python calls, XML-ish, …). */
// One start marker may carry several grammars; the first whose `accepts` matches the body's shape
// decodes it.
import type { CandidateCall } from './call-payload.js';
import type { ToolRoster } from './tool-roster.js';

/**
 * How the body was delimited. `closed`: its end marker was seen, so missing brackets may be repaired.
 * `unclosed`: the reply ended inside it, so only a complete body counts (a truncated call must never
 * surface). `bare`: no envelope at all, so only the exact call shape counts.
 */
export type BodyFraming = 'closed' | 'unclosed' | 'bare';

export type DecodeContext = {
  roster: ToolRoster;
  framing: BodyFraming;
};

/** `incomplete`: the body stopped mid-value, as a cut-off reply does. */
export type DecodedBody = { type: 'calls'; calls: CandidateCall[] } | { type: 'invalid'; message: string; incomplete?: boolean };

export type BodyGrammar = {
  /** Unique id, used to merge grammars registered twice for one marker. */
  readonly id: string;
  /** Whether the body (trimmed, envelope noise removed) has this grammar's shape. */
  accepts(body: string): boolean;
  decode(body: string, context: DecodeContext): DecodedBody;
};

/** Decodes with the first grammar that accepts the body. */
export function decodeWithGrammars(body: string, grammars: readonly BodyGrammar[], context: DecodeContext): DecodedBody {
  if (body === '') return { type: 'invalid', message: 'The tool call is empty' };
  const grammar = grammars.find((candidate) => candidate.accepts(body));
  if (grammar === undefined) return { type: 'invalid', message: `Unreadable tool call: ${excerpt(body)}` };
  return grammar.decode(body, context);
}

export function excerpt(text: string, length = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= length ? flat : `${flat.slice(0, length - 1)}…`;
}
