/** The `special-tokens-stripped` warning: a reply carried a family's markup without its special tokens. */
// The code is a contract (DESIGN.md §5); the message names the fix for each kind of server.
import type { ParsedEvent } from '../../src/core/index.js';

type WarningEvent = Extract<ParsedEvent, { type: 'warning' }>;

export function strippedTokensWarning(family: string, found: readonly string[], restored: number): WarningEvent {
  const sample = JSON.stringify(found[0] ?? '');
  const outcome =
    restored === found.length
      ? 'the gateway put the markers back where the remains were unambiguous and read the reply'
      : restored > 0
        ? `the gateway read ${restored} of ${found.length} such places; the others name no offered tool and stay in the text`
        : 'what remained names no offered tool, so it stays in the text';
  return {
    type: 'warning',
    code: 'special-tokens-stripped',
    message:
      `The upstream server removed the model's special tokens, so its ${family} tool-call markup arrived without them (${sample}); ${outcome}. ` +
      "To keep them: start llama-server with --special, let Ollama parse the calls itself (toolCalling: native), or set this provider's `server` setting (vllm, sglang, llama.cpp) so the gateway asks the server to keep special tokens (skip_special_tokens: false).",
  };
}
