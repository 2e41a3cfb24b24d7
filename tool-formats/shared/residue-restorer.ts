/** Puts a family's special tokens back where a server stripped them and the remains are unambiguous. */
// A synchronous state machine over the reply's text, in front of the family's parser: it holds back only
// a possible start of residue (a partial trigger, or a site its family's `read` has not decided yet, which
// `read` keeps to a bounded prefix), and passes JSON values through while it waits for their end.
import { JsonScanState, advanceJsonScan } from './json-scan-state.js';
import { MarkerMatcher } from './marker-matcher.js';
import type { ResidueSite, StrippedResidue } from './stripped-residue.js';
import type { ToolRoster } from './tool-roster.js';

type Mode =
  /** Deciding at a site, the text from `position` onwards. */
  | { type: 'site'; site: ResidueSite }
  /** Looking for the next trigger. */
  | { type: 'scan' }
  /** Inside the JSON value after restored residue; `close` goes after it. */
  | { type: 'value'; state: JsonScanState; close: string };

const scanMode: Mode = { type: 'scan' };
/** What `step` answers to keep the rest of the input for the next chunk. */
const held = -1;

export class ResidueRestorer {
  private mode: Mode = { type: 'site', site: 'reply-start' };
  private pending = '';
  /** Where the text to keep starts in the input of a step that answered `held`. */
  private holdFrom = 0;
  private previousCode = -1;
  private readonly triggers: MarkerMatcher<true>;
  /** Residue found in the reply so far (restored or not), by the text that showed it. */
  readonly found: string[] = [];
  /** Residue put back into markup. */
  restoredCount = 0;

  constructor(
    private readonly residue: StrippedResidue,
    private readonly roster: ToolRoster,
  ) {
    this.triggers = new MarkerMatcher(residue.triggers.map((marker) => ({ marker, value: true as const })));
  }

  /** The text to hand to the family's parser for `chunk`: what can be decided so far, restored. */
  restore(chunk: string): string {
    const input = this.pending === '' ? chunk : this.pending + chunk;
    this.pending = '';
    // Most chunks of prose hold no trigger: passed on as they are.
    if (this.mode.type === 'scan') {
      const hit = this.triggers.find(input, 0);
      if (hit.type === 'none') return this.passed(input);
    }
    const out: string[] = [];
    let position = 0;
    while (position < input.length) {
      const next = this.step(input, position, out);
      if (next === held) {
        this.pending = input.slice(this.holdFrom);
        break;
      }
      position = next;
    }
    return out.join('');
  }

  /** The text still held, as written: the reply ended before it was decided. */
  finish(): string {
    const rest = this.pending;
    this.pending = '';
    return rest;
  }

  private passed(text: string): string {
    if (text !== '') this.previousCode = text.charCodeAt(text.length - 1);
    return text;
  }

  private emit(out: string[], text: string): void {
    if (text === '') return;
    out.push(text);
    this.previousCode = text.charCodeAt(text.length - 1);
  }

  /** The position to go on from, or `held` to keep `input[holdFrom..]` for more text. */
  private step(input: string, position: number, out: string[]): number {
    const mode = this.mode;
    switch (mode.type) {
      case 'scan': {
        const hit = this.triggers.find(input, position);
        if (hit.type === 'none') {
          this.emit(out, input.slice(position));
          return input.length;
        }
        this.emit(out, input.slice(position, hit.index));
        if (hit.type === 'partial') return this.hold(hit.index);
        this.mode = { type: 'site', site: 'trigger' };
        return hit.index;
      }
      case 'site':
        return this.decide(input, position, mode.site, out);
      case 'value': {
        const end = advanceJsonScan(mode.state, input, position, undefined, true);
        this.emit(out, input.slice(position, end));
        if (mode.state.completedValues === 0) return end;
        this.emit(out, mode.close);
        this.mode = { type: 'site', site: 'after-call' };
        return end;
      }
    }
  }

  private hold(from: number): number {
    this.holdFrom = from;
    return held;
  }

  private decide(input: string, position: number, site: ResidueSite, out: string[]): number {
    const match = this.residue.read(input, position, {
      site,
      roster: this.roster,
      seen: this.found.length > 0,
      previousCode: this.previousCode,
    });
    switch (match.type) {
      case 'more':
        return this.hold(position);
      case 'none':
        this.mode = scanMode;
        if (site !== 'trigger') return position;
        // Not residue: the trigger's first character is text, and the search goes on after it.
        this.emit(out, input.slice(position, position + 1));
        return position + 1;
      case 'residue': {
        this.found.push(match.evidence);
        const end = position + match.length;
        if (match.restored === undefined) {
          this.emit(out, input.slice(position, end));
          this.mode = scanMode;
          return end;
        }
        this.restoredCount++;
        this.emit(out, match.restored);
        this.mode = match.afterValue === undefined ? scanMode : { type: 'value', state: new JsonScanState(), close: match.afterValue };
        return end;
      }
    }
  }
}
