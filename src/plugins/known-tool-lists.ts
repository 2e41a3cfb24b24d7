/**
 * JSON.parse for request bodies that reuses recently seen tool lists. Agents (Claude Code, Codex,
 * opencode) resend the same `tools` array, often 50–100 KB of schemas, on every turn; parsing it is
 * most of a request's cost. The raw text of a top-level `tools` value (one tool's worth or more) is remembered with its
 * parsed value, made a shared tool list (src/core/shared-tool-list.ts), the second time a list opening like it arrives; when a later body
 * carries the same text at its top-level `tools`, only the rest of the body is parsed and the
 * remembered value is put in.
 *
 * Soundness does not rest on the text search: the candidate value is replaced by a placeholder string
 * holding a per-process random nonce, and the result is kept only when the parsed body's own top-level
 * `tools` is that placeholder. Since the replaced text is one complete JSON array (it parsed as one),
 * the original body then parses to the same object with that array in place. A match inside a nested
 * object, a duplicate `tools` key or invalid JSON fails the check and falls back to a plain JSON.parse,
 * so errors are JSON.parse's own.
 */
import { shareToolList } from '../core/shared-tool-list.js';
import { randomHex } from '../core/random-id.js';
import { findTooDeepValue } from '../core/find-too-deep-value.js';
import { findJsonContainerEnd } from './json-container-end.js';

export type KnownToolListsOptions = {
  /** Tool lists remembered (least recently used evicted). */
  capacity: number;
  /** Raw text shorter than this is parsed as usual: the bookkeeping would cost more than it saves. */
  minimumLength: number;
  /**
   * The body's nesting limit (see json-body-parser.ts). A list nested deeper is not learnt: freezing it
   * would overflow the stack, and the parser refuses the body anyway. Learnt lists are within it, so
   * the parser's depth check need not enter them again.
   */
  maximumDepth: number;
};

type KnownList = { raw: string; value: unknown };
type ParsedBody = Record<string, unknown>;

/**
 * 256 characters is about one tool. Even a list that small is worth remembering when it comes back:
 * what it spares downstream (validation, translation, the rendered prompt's cache key, the wire JSON)
 * cost more than the lookup; measured side by side with 4096 as the minimum, 4–5% less CPU per request
 * for a one-tool request in both lanes.
 */
const defaultOptions: KnownToolListsOptions = { capacity: 8, minimumLength: 256, maximumDepth: 128 };

// A client cannot send this value: it starts with U+0000 and holds a nonce drawn at start-up.
const placeholderValue = `\u0000interlingua-known-tools-${randomHex(32)}`;
const placeholderJson = JSON.stringify(placeholderValue);

/**
 * `"tools"` keys looked at per body. A real body has one, or a few nested ones; the bound keeps a
 * body crafted with thousands of them (each compared with the known lists) linear to parse.
 * At most one substituted parse is tried per body, for the same reason.
 */
const maximumCandidates = 4;

/** Enough of a list's text to tell an agent's list coming back from a different one. */
const sightingLength = 256;

const toolsKey = '"tools"';
const colon = 0x3a;
const openBracket = 0x5b;

function isJsonWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

function skipWhitespace(text: string, at: number): number {
  while (isJsonWhitespace(text.charCodeAt(at))) at++;
  return at;
}

/** The offset of the next `[` that follows `"tools"`, whitespace, `:` and whitespace (`"tools": [` from Python), or -1. */
function nextToolsArray(body: string, from: number): number {
  for (let keyAt = body.indexOf(toolsKey, from); keyAt !== -1; keyAt = body.indexOf(toolsKey, keyAt + toolsKey.length)) {
    const colonAt = skipWhitespace(body, keyAt + toolsKey.length);
    if (body.charCodeAt(colonAt) !== colon) continue;
    const valueAt = skipWhitespace(body, colonAt + 1);
    if (body.charCodeAt(valueAt) === openBracket) return valueAt;
  }
  return -1;
}

/**
 * Parses the body with `body[start, end)` replaced by the placeholder; the result only when that
 * placeholder became the top-level `tools` (JSON.parse keeps the last duplicate key, so an earlier
 * duplicate fails too).
 */
function parseAroundTools(body: string, start: number, end: number): ParsedBody | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.slice(0, start) + placeholderJson + body.slice(end));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  return (parsed as ParsedBody).tools === placeholderValue ? (parsed as ParsedBody) : undefined;
}

/**
 * A copy of `text` that does not keep the body it was sliced from alive (V8 slices point into their
 * parent; concatenating then slicing makes V8 flatten into a new string). Bodies may be megabytes.
 */
function detach(text: string): string {
  return ` ${text}`.slice(1);
}

export class KnownToolLists {
  /** Most recently used first; a handful of entries, so a linear scan beats any index. */
  private readonly lists: KnownList[] = [];
  /** The openings of lists seen once and not learnt yet, most recent first. */
  private readonly sightings: string[] = [];
  private readonly options: KnownToolListsOptions;

  constructor(options: Partial<KnownToolListsOptions> = {}) {
    this.options = { ...defaultOptions, ...options };
  }

  /** JSON.parse(body), with the same result and the same errors; a large top-level `tools` may be a shared, frozen value. */
  parse(body: string): unknown {
    if (body.length < this.options.minimumLength) return JSON.parse(body);
    let from = 0;
    for (let candidates = 0; candidates < maximumCandidates; candidates++) {
      const start = nextToolsArray(body, from);
      if (start === -1) break;
      const known = this.find(body, start);
      if (known) return this.parseWithKnown(body, start, known) ?? JSON.parse(body);
      // Learning (a scan, a second parse of the list, a deep freeze) costs about one more JSON.parse:
      // worth it for a list that comes back, as an agent's does, not for every list seen once. Later
      // candidates are still looked up: this one may be nested (in a message, say) before the real one.
      if (!this.seenBefore(body, start)) {
        from = start;
        continue;
      }
      const end = findJsonContainerEnd(body, start);
      if (end === -1) break;
      if (end - start >= this.options.minimumLength) return this.parseAndLearn(body, start, end) ?? JSON.parse(body);
      // A small list, top-level or nested: not worth remembering; a later `"tools"` may still be.
      from = end;
    }
    return JSON.parse(body);
  }

  /** How many lists are remembered (for tests). */
  get size(): number {
    return this.lists.length;
  }

  /** Whether a list starting like this one was met recently; if not, it is noted for next time. */
  private seenBefore(body: string, start: number): boolean {
    const opening = body.slice(start, start + sightingLength);
    const index = this.sightings.indexOf(opening);
    if (index === -1) {
      this.sightings.unshift(detach(opening));
      if (this.sightings.length > this.options.capacity) this.sightings.pop();
      return false;
    }
    if (index > 0) this.sightings.unshift(...this.sightings.splice(index, 1));
    return true;
  }

  private find(body: string, start: number): KnownList | undefined {
    for (const [index, list] of this.lists.entries()) {
      // A slice is a view, and string equality is a length check then a memory compare.
      if (body.length - start >= list.raw.length && body.slice(start, start + list.raw.length) === list.raw) {
        if (index > 0) this.lists.unshift(...this.lists.splice(index, 1));
        return list;
      }
    }
    return undefined;
  }

  private parseWithKnown(body: string, start: number, known: KnownList): ParsedBody | undefined {
    const parsed = parseAroundTools(body, start, start + known.raw.length);
    if (parsed) parsed.tools = known.value;
    return parsed;
  }

  private parseAndLearn(body: string, start: number, end: number): ParsedBody | undefined {
    const parsed = parseAroundTools(body, start, end);
    if (!parsed) return undefined;
    const raw = body.slice(start, end);
    let value: unknown;
    try {
      // It starts with `[`, ends with the bracket that closes it and parses whole: exactly one array, what stood in the body.
      value = JSON.parse(raw);
    } catch {
      return undefined;
    }
    // The list sits at depth 2 (inside the body object); the body parser reports it.
    if (findTooDeepValue(value, this.options.maximumDepth - 1) !== undefined) return undefined;
    // An array: it starts with `[` and parsed whole.
    value = shareToolList(value as unknown[]);
    this.lists.unshift({ raw: detach(raw), value });
    if (this.lists.length > this.options.capacity) this.lists.pop();
    parsed.tools = value;
    return parsed;
  }
}
