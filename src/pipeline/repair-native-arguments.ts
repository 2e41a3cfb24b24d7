/**
 * Native tool calls whose arguments are not valid JSON (an upstream's own tool parser emitted
 * `{"city": "Paris"` or a trailing comma) are repaired before they reach the client, whose SDK would
 * fail on JSON.parse, and the repair is said in `diagnostics.warnings`.
 *
 * Streaming: argument deltas are passed on while the text stays a prefix of strict JSON (see
 * strict-json-prefix.ts), so the deltas a client accumulates spell valid JSON after a dropped trailing
 * comma or appended closers too, and arguments keep streaming as they arrive. Text that cannot be
 * completed by appending (single quotes, Python literals) is held from the first such character; at
 * the call's end the lenient reader repairs the whole text. When nothing was passed on yet, the
 * repaired arguments are sent as the call's delta; otherwise the client has the held rest as received,
 * and the repaired arguments go in the call's end (what non-streamed replies, Responses' `.done`
 * events and agent_format use). Arguments that cannot be repaired are kept as received and reported.
 *
 * A reply that ends at the output token limit (finish reason `length`) cut its last call off: closing its
 * brackets would make half a call look whole (with a value cut short, or members missing), so its
 * arguments go on as received, as OpenAI itself sends them. The upstream ends its calls just before the
 * finish, so an end that needs repairing waits for the next event to tell which it is.
 */
import type { StreamEvent } from '../core/stream-event.js';
import type { DiagnosticsCollector } from './diagnostics-collector.js';
import { applyStage, type EventStage } from './event-stage.js';
import { StrictJsonPrefix } from './strict-json-prefix.js';

/** Valid JSON text for a lenient one (the prompted lane's reader, given by app.ts), or undefined when it cannot be read. */
export type JsonRepair = (text: string) => string | undefined;

export type RepairOptions = { repair: JsonRepair; diagnostics: DiagnosticsCollector };

/**
 * `whole`: the call's arguments when its first delta was already a complete JSON object (every whole
 * reply's call, and many streamed ones): passed on as they are, checked once with JSON.parse instead of
 * character by character and then parsed again at the call's end. The prefix is fed them only if more
 * text follows.
 */
type OpenCall = { name: string; prefix: StrictJsonPrefix | undefined; whole: string | undefined };

/** The call's prefix, made when text first has to be read through it (a call whose arguments came whole never needs one). */
function prefixOf(call: OpenCall): StrictJsonPrefix {
  return (call.prefix ??= new StrictJsonPrefix());
}

/** A delta that may hold a whole object: cheap to test, so that a partial one rarely pays for a failed JSON.parse. */
function looksWhole(text: string): boolean {
  return text.length >= 2 && text.charCodeAt(0) === 0x7b && text.charCodeAt(text.length - 1) === 0x7d;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A call's end whose arguments need repairing, held until the next event. */
type HeldEnd = { index: number; call: OpenCall; received: string };

class RepairStage implements EventStage {
  private readonly calls = new Map<number, OpenCall>();
  private readonly heldEnds: HeldEnd[] = [];
  finished = false;

  constructor(private readonly options: RepairOptions) {}

  push(event: StreamEvent, out: StreamEvent[]): void {
    if (this.heldEnds.length > 0) this.releaseEnds(event.type === 'finish' && event.reason.unified === 'length', out);
    switch (event.type) {
      case 'tool-call-start':
        this.calls.set(event.index, { name: event.name, prefix: undefined, whole: undefined });
        out.push(event);
        return;
      case 'tool-call-delta': {
        const call = this.calls.get(event.index);
        if (!call) return void out.push(event);
        const text = event.argumentsDelta;
        if (call.whole === undefined && (call.prefix?.received ?? '') === '' && looksWhole(text) && isJson(text)) {
          call.whole = text;
          return void out.push(event);
        }
        this.replayWhole(call);
        const passed = prefixOf(call).push(text);
        if (passed !== '') out.push({ ...event, argumentsDelta: passed });
        return;
      }
      case 'tool-call-end': {
        const call = this.calls.get(event.index);
        this.calls.delete(event.index);
        if (!call) return void out.push(event);
        if (call.whole !== undefined && call.whole === event.arguments) return void out.push(event);
        this.replayWhole(call);
        if (!prefixOf(call).altered && isJson(event.arguments)) this.endCall(event.index, call, event.arguments, out);
        else this.heldEnds.push({ index: event.index, call, received: event.arguments });
        return;
      }
      case 'finish':
      case 'error':
        this.finished = true;
        // A call left open has its held text as received: nothing may go missing.
        for (const [index, call] of this.calls)
          if (call.prefix && call.prefix.held !== '') out.push({ type: 'tool-call-delta', index, argumentsDelta: call.prefix.held });
        out.push(event);
        return;
      default:
        out.push(event);
    }
  }

  end(out: StreamEvent[]): void {
    if (this.heldEnds.length > 0) this.releaseEnds(false, out);
  }

  /** The held ends, repaired; or, when the token limit cut the reply (`cutOff`), as received. */
  private releaseEnds(cutOff: boolean, out: StreamEvent[]): void {
    for (const { index, call, received } of this.heldEnds) {
      if (!cutOff) {
        this.endCall(index, call, received, out);
        continue;
      }
      const held = prefixOf(call).held;
      if (held !== '') out.push({ type: 'tool-call-delta', index, argumentsDelta: held });
      this.options.diagnostics.warn({
        code: 'tool-arguments-cut-off',
        message: `The call to "${call.name}" was cut off at the output token limit: its arguments are passed on as received, not repaired.`,
      });
      out.push({ type: 'tool-call-end', index, arguments: received });
    }
    this.heldEnds.length = 0;
  }

  /** A whole first delta was passed on unread by the prefix: it reads it now, since the call goes on (what it passes was passed already). */
  private replayWhole(call: OpenCall): void {
    if (call.whole === undefined) return;
    prefixOf(call).push(call.whole);
    call.whole = undefined;
  }

  private endCall(index: number, call: OpenCall, received: string, out: StreamEvent[]): void {
    const prefix = prefixOf(call);
    // The usual case: valid as received (the end may spell text its deltas did not, e.g. Anthropic's `{}`).
    if (!prefix.altered && isJson(received)) {
      if (prefix.held !== '') out.push({ type: 'tool-call-delta', index, argumentsDelta: prefix.held });
      out.push({ type: 'tool-call-end', index, arguments: received });
      return;
    }
    const completion = prefix.received === received ? prefix.completion() : undefined;
    if (completion !== undefined && isJson(prefix.passed + completion)) {
      if (completion !== '') out.push({ type: 'tool-call-delta', index, argumentsDelta: completion });
      this.warn(call, 'was repaired (a trailing comma or missing closing brackets)');
      out.push({ type: 'tool-call-end', index, arguments: prefix.passed + completion });
      return;
    }
    const repaired = this.options.repair(received);
    if (repaired !== undefined && prefix.passed === '') {
      out.push({ type: 'tool-call-delta', index, argumentsDelta: repaired });
      this.warn(call, 'was repaired');
      out.push({ type: 'tool-call-end', index, arguments: repaired });
      return;
    }
    if (prefix.held !== '') out.push({ type: 'tool-call-delta', index, argumentsDelta: prefix.held });
    if (repaired !== undefined) {
      this.warn(call, 'was repaired; its streamed argument deltas are as received, the repaired arguments are in the finished call');
      out.push({ type: 'tool-call-end', index, arguments: repaired });
      return;
    }
    this.options.diagnostics.warn({
      code: 'invalid-tool-arguments',
      message: `The arguments of the call to "${call.name}" are not valid JSON and could not be repaired; they are passed on as received.`,
    });
    out.push({ type: 'tool-call-end', index, arguments: received });
  }

  private warn(call: OpenCall, what: string): void {
    this.options.diagnostics.warn({
      code: 'repaired-tool-arguments',
      message: `The upstream's arguments for the call to "${call.name}" were not valid JSON and ${what}.`,
    });
  }
}

/** The native lane's argument repair; see the file comment for what a streaming client receives. */
export function repairNativeArguments(events: AsyncIterable<StreamEvent>, options: RepairOptions): AsyncIterable<StreamEvent> {
  return applyStage(events, new RepairStage(options));
}
