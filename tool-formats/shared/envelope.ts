/** Envelopes: how a family wraps calls in text (start markers, how the body ends, body grammars). */
// Families register envelopes; every parser recognises its own first, then all others.
import type { BodyGrammar } from './body-grammar.js';
import type { BodyScanner } from './body-scanner.js';

/**
 * How the end of a body is found.
 * - `tagged`: at an end marker, outside JSON strings when the body is JSON. A repeated start marker
 *   after a complete body also ends it (a forgotten closing tag between two calls). Options: see
 *   `TaggedBodyOptions`.
 * - `values`: right after its JSON value(s), which may be separated by `separator` (Llama's `; `);
 *   an end marker right after the values is swallowed.
 * - `custom`: the family scans the body itself (e.g. Mistral's `NAME[ARGS]{json}`).
 */
export type BodyScanning =
  | ({ type: 'tagged' } & TaggedBodyOptions)
  | { type: 'values'; separator: string }
  | { type: 'custom'; createScanner: (envelope: Envelope) => BodyScanner };

/**
 * A raw value inside an XML-ish body, from `open` to `close` (`<parameter=` … `</parameter>`).
 * `nested` (optional) opens a value of the same kind quoted inside this one (code showing a
 * `\n<parameter=…>` block), whose close then does not end the outer value.
 */
export type ValueSpan = { open: string; close: string; nested?: string };

export type TaggedBodyOptions = {
  /**
   * The body is always code (JSON or Python calls, as in ```` ```tool_code ````): brackets and quoted
   * strings are tracked from its first character even when it does not start with `{` or `[`, so an
   * end marker inside a Python string does not close it.
   */
  code?: boolean;
  /**
   * Values taken as they are: an end or start marker inside one is text, so a parameter holding code
   * with `</tool_call>` in it does not close the body. Only in bodies that are not JSON.
   */
  valueSpans?: readonly ValueSpan[];
  /**
   * Markers a JSON value follows (DeepSeek's `<｜tool▁sep｜>`, Kimi's `<|tool_call_argument_begin|>`), in a
   * body that is not JSON from its start: from the first `{` or `[` after one, the value is scanned as
   * JSON until it closes, so the section's end marker inside one of its strings does not close the body.
   */
  jsonValuesAfter?: readonly string[];
  /**
   * Markers swallowed when they follow the end marker after at most a little whitespace: the
   * `</tool_call>` after `<function=…>…</function>` when the model left out the opening `<tool_call>`.
   */
  trailingEnd?: readonly string[];
  /**
   * The body opens with a header ending at this character (`NAME>` after `<function=`), then is sniffed
   * as any body is: JSON arguments after the header are scanned as JSON, so an end marker inside one
   * of their strings does not close the body.
   */
  headerEnd?: string;
};

export type Envelope = {
  /** The family that owns this syntax (reported in `tool-call-unparsed.format`). */
  family: string;
  /** Alternative start markers, e.g. `<tool_call>`. */
  start: readonly string[];
  /** Alternative end markers; may be empty when the body ends on its own or at the end of the reply. */
  end: readonly string[];
  /**
   * `explicit`: the markup always means a call; a rejected one never reaches the text.
   * `candidate` (```` ```json ````): a call only when it is one to an offered tool, else it stays text.
   */
  kind: 'explicit' | 'candidate';
  body: BodyScanning;
  /** The reply's end closes the envelope normally (`<|python_tag|>`, `[TOOL_CALLS]`). */
  endsAtReplyEnd?: boolean;
  /** Tried in order on the body; the first whose shape matches decodes it. */
  grammars: readonly BodyGrammar[];
  /**
   * `family`: only the family's own parser knows the envelope, for markers other families write as
   * ordinary text (Qwen2.5-Coder answers in `<tools>`, the tag Hermes-style prompts put the tool list in).
   */
  scope?: 'family';
};

/**
 * A reasoning block such as `<think>…</think>`: streamed as reasoning, never parsed for calls.
 * `endsBefore`: markers that end the reasoning without its close tag and are then read as text, e.g.
 * Kimi-K2 starting its tool-call section before `</think>`.
 */
export type ReasoningTag = {
  open: string;
  close: string;
  endsBefore?: readonly string[];
  /**
   * `family`: only the family's own parser knows the tag. For plain-language markers (Granite's `Here is
   * my thought process:`) that other models write as ordinary prose, where they would swallow the answer.
   */
  scope?: 'family';
};

export const thinkTag: ReasoningTag = { open: '<think>', close: '</think>' };

/** `<open>body<close>`, the common case. */
export function taggedEnvelope(
  family: string,
  start: string | readonly string[],
  end: string | readonly string[],
  grammars: readonly BodyGrammar[],
  options: TaggedBodyOptions = {},
): Envelope {
  return {
    family,
    start: typeof start === 'string' ? [start] : start,
    end: typeof end === 'string' ? [end] : end,
    kind: 'explicit',
    body: { type: 'tagged', ...options },
    grammars,
  };
}

/** A Markdown fence with an info string, e.g. ```` ```tool_call ````. `code`: see `TaggedBodyOptions`. */
export function fencedEnvelope(
  family: string,
  infoStrings: readonly string[],
  kind: Envelope['kind'],
  grammars: readonly BodyGrammar[],
  options: Pick<TaggedBodyOptions, 'code'> = {},
): Envelope {
  return {
    family,
    start: infoStrings.map((info) => '```' + info),
    end: ['```'],
    kind,
    body: { type: 'tagged', ...options },
    grammars,
  };
}
