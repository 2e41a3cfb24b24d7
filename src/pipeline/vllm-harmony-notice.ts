/**
 * gpt-oss on a vLLM started without its tool parser: vLLM reads gpt-oss's reply from token ids with
 * openai_harmony and, with no parser, keeps only the last message's text, dropping its recipient
 * (`parse_chat_output` in vllm/entrypoints/openai/parser/harmony_utils.py). A call then reaches us as its
 * bare arguments, which no parser can give a name back to, and keeping special tokens does not help.
 * The reply says so, with the fix, when a request that offered tools got no call.
 */
import type { StreamEvent } from '../core/stream-event.js';
import type { DiagnosticsCollector } from './diagnostics-collector.js';
import { applyStage, type EventStage } from './event-stage.js';

const notice = {
  code: 'special-tokens-stripped',
  message:
    "vLLM reads gpt-oss's reply through openai_harmony and, started without a tool parser, drops the recipient of a " +
    'call, so no tool call can be recovered from its text. Start vLLM with --enable-auto-tool-choice --tool-call-parser openai.',
};

class HarmonyNoticeStage implements EventStage {
  private calls = 0;
  finished = false;

  constructor(private readonly diagnostics: DiagnosticsCollector) {}

  push(event: StreamEvent, out: StreamEvent[]): void {
    if (event.type === 'tool-call-start') this.calls++;
    else if (event.type === 'finish' || event.type === 'error') {
      if (event.type === 'finish' && this.calls === 0) this.diagnostics.warn(notice);
      this.finished = true;
    }
    out.push(event);
  }

  end(): void {
    // A cut-off stream is reported by the finalize stage.
  }
}

/** Whether a native request may meet that vLLM: gpt-oss's family, a vLLM server, tools offered. */
export function mayLoseHarmonyRecipient(server: string | undefined, family: string, toolCount: number): boolean {
  return server === 'vllm' && family === 'harmony' && toolCount > 0;
}

export function noticeLostHarmonyRecipient(
  events: AsyncIterable<StreamEvent>,
  diagnostics: DiagnosticsCollector,
): AsyncIterable<StreamEvent> {
  return applyStage(events, new HarmonyNoticeStage(diagnostics));
}
