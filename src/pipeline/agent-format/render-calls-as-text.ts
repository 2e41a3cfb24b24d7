/** The text-format transform on the event stream: tool calls become text in the agent's syntax. */
// Each call is written once it is complete, in order with the text around it, and is not also a structured
// call (clients that honour both would run it twice, AbstractCore W-9). Text before a call is never held;
// text that arrives while a call is still open comes after that call, so it waits for it.
//
// A reply cut at the output token limit (finish reason `length`) inside a call has arguments that are not a
// whole JSON object: that call is not written as if it were whole but reported as the prompted lane reports
// a call the model did not close (`unparsed_tool_call`, reason `unclosed`), so an agent never runs half a
// call. Such a call is therefore written only once the reply's end says why it stopped.
import type { AgentTextSyntax } from '../../core/agent-text-syntax.js';
import type { StreamEvent } from '../../core/stream-event.js';
import { appendTokens, type TokenLogprob } from '../../core/token-logprob.js';
import type { DiagnosticsCollector } from '../diagnostics-collector.js';
import { CallTextLayout } from './call-text-layout.js';

type OpenCall = { name: string; argumentsText: string; complete: boolean };

export async function* renderCallsAsText(
  events: AsyncIterable<StreamEvent>,
  syntax: AgentTextSyntax,
  diagnostics?: DiagnosticsCollector,
): AsyncGenerator<StreamEvent> {
  const layout = new CallTextLayout();
  /** Calls by index, in the order they started; rendered (and removed) from the front as they complete. */
  const open = new Map<number, OpenCall>();
  let heldText = '';
  /** The held text's tokens, when the client asked for log probabilities. */
  let heldLogprobs: TokenLogprob[] | undefined;

  // The model's tokens stay with its text; a newline the layout adds has none (rendered calls have none either).
  const textEvent = (delta: string, logprobs: TokenLogprob[] | undefined): StreamEvent[] => {
    const text = layout.text(delta);
    if (text === '') return [];
    return [logprobs ? { type: 'text-delta', delta: text, logprobs } : { type: 'text-delta', delta: text }];
  };

  /**
   * Renders the completed calls at the front (all of them when the stream ends), then any text they held up.
   * `cutOff`: the reply ended at the token limit, so a call whose arguments are not whole was cut off.
   */
  function* flush(all: boolean, cutOff = false): Generator<StreamEvent> {
    for (const [index, call] of open) {
      if (!call.complete && !all) break;
      open.delete(index);
      if (cutOff && !isWholeJsonObject(call.argumentsText || '{}')) {
        diagnostics?.report({ type: 'tool-call-unparsed', format: syntax.id, text: cutOffCallText(call), reason: 'unclosed' });
        continue;
      }
      yield { type: 'text-delta', delta: layout.call(syntax.renderCall({ name: call.name, arguments: call.argumentsText || '{}' })) };
    }
    if (open.size === 0 && heldText !== '') {
      yield* textEvent(heldText, heldLogprobs);
      heldText = '';
      heldLogprobs = undefined;
    }
  }

  /**
   * OpenAI-style upstreams end their calls only at finish (calls may interleave), but arguments that are a
   * whole JSON object can take nothing more: when the next call starts, or the upstream breaks off, such a
   * call is complete and is written, rather than held to the end or lost with the stream.
   */
  const closeWholeCalls = () => {
    for (const call of open.values()) if (!call.complete && isWholeJsonObject(call.argumentsText)) call.complete = true;
  };

  for await (const event of events) {
    switch (event.type) {
      case 'tool-call-start':
        closeWholeCalls();
        yield* flush(false);
        open.set(event.index, { name: event.name, argumentsText: '', complete: false });
        break;
      case 'tool-call-delta': {
        const call = open.get(event.index);
        if (call) call.argumentsText += event.argumentsDelta;
        break;
      }
      case 'tool-call-end': {
        const call = open.get(event.index);
        // Arguments that are not whole may be a call the token limit cut: it waits for the reply's end.
        if (call) Object.assign(call, { argumentsText: event.arguments, complete: isWholeJsonObject(event.arguments || '{}') });
        yield* flush(false);
        break;
      }
      case 'text-delta':
        if (open.size > 0) {
          heldText += event.delta;
          if (event.logprobs) heldLogprobs = appendTokens(heldLogprobs, event.logprobs);
        } else yield* textEvent(event.delta, event.logprobs);
        break;
      case 'finish':
        yield* flush(true, event.reason.unified === 'length');
        yield event;
        break;
      case 'error':
        closeWholeCalls();
        yield* flush(false);
        yield event;
        break;
      default:
        yield event;
    }
  }
}

/** A cut-off call as the neutral `{"name", "arguments"}` text it began, for the diagnostic (its own syntax cannot write half a call). */
function cutOffCallText(call: OpenCall): string {
  return `{"name": ${JSON.stringify(call.name)}, "arguments": ${call.argumentsText}`;
}

function isWholeJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
