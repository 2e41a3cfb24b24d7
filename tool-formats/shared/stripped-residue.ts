/** A family's stripped residue: what its markup leaves when a server removes the special tokens, and how to read it. */
// vLLM's `skip_special_tokens` (true unless a tool parser turns it off), llama-server without `--special` and
// Ollama's runner drop every special token from the text, so `<|channel|>commentary to=functions.f
// <|constrain|>json<|message|>{…}` reaches the gateway as `commentary to=functions.f json{…}`. A family
// describes the remains that cannot be prose; the restorer (residue-restorer.ts) puts the markers back
// where the remains are unambiguous, so the family's own parser reads the call as it always does.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/entrypoints/openai/chat_completion/protocol.py (skip_special_tokens)
// @see https://github.com/ggml-org/llama.cpp/blob/master/tools/server/server-context.cpp (accept_special_token)
import type { ToolRoster } from './tool-roster.js';

/**
 * Where residue is looked for: the reply's very start, one of the family's `triggers`, or right after
 * a JSON value that followed restored residue (Mistral's `a{…}b{…}`, two calls that had `[TOOL_CALLS]` each).
 */
export type ResidueSite = 'reply-start' | 'trigger' | 'after-call';

export type ResidueContext = {
  site: ResidueSite;
  roster: ToolRoster;
  /** Residue was already found in this reply (Harmony's channel switches count only then). */
  seen: boolean;
  /** The character code just before the site; -1 at the reply's start. */
  previousCode: number;
};

export type ResidueMatch =
  /** The text from the site is a proper prefix of residue: more is needed to decide. */
  | { type: 'more' }
  | { type: 'none' }
  /**
   * `length` characters from the site are residue. `restored`: the markup the family's parser reads in
   * their place, or undefined when they cannot be read as a call (an unoffered tool: the text stays as
   * written, and the reply is still reported). `afterValue`: the residue ends before a JSON value, and
   * this markup (the envelope's close) goes right after that value. `evidence`: the text that showed
   * it to be residue, quoted in the warning.
   */
  | { type: 'residue'; length: number; evidence: string; restored?: string; afterValue?: string };

export type StrippedResidue = {
  /** Literals where residue may begin anywhere in the reply. */
  triggers: readonly string[];
  /**
   * Decides at `text[from..]`, which at a `trigger` site starts with one of the triggers. Must answer
   * by the text alone (a bounded prefix of it), never by how much has arrived, so that any chunking of
   * a reply is read alike: `more` only while the text seen so far is a proper prefix of residue.
   */
  read(text: string, from: number, context: ResidueContext): ResidueMatch;
};
