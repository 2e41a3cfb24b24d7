/**
 * The neutral event stream: providers produce it, the pipeline transforms it, routes render it.
 * Tool calls have a start/delta/end lifecycle keyed by `index` (0..n in order of appearance).
 */
import type { Diagnostics } from './diagnostics.js';
import type { FinishReason } from './finish-reason.js';
import type { GatewayError } from './gateway-error.js';
import type { TokenLogprob } from './token-logprob.js';
import type { Usage } from './usage.js';
import type { Warning } from './warning.js';

export type StreamEvent =
  | { type: 'response-start'; id: string; model: string; warnings: Warning[] }
  /**
   * `logprobs`: the tokens this delta completes, only when the client asked for them and the upstream sent
   * them (absent otherwise, so the plain path carries nothing). A token whose text is split over deltas
   * rides on the delta that completes it.
   */
  | { type: 'text-delta'; delta: string; logprobs?: TokenLogprob[] }
  /**
   * Words of a declined request, as the upstream streams them apart from the content (OpenAI's
   * `delta.refusal`); `logprobs` as on text-delta (OpenAI's `logprobs.refusal`). The finish that follows says
   * `refusalIsReply`.
   */
  | { type: 'refusal-delta'; delta: string; logprobs?: TokenLogprob[] }
  | { type: 'reasoning-delta'; delta: string }
  /** Opaque reasoning signature (Anthropic) so that multi-turn thinking can round-trip. */
  | { type: 'reasoning-signature'; signature: string }
  /** One whole block of encrypted reasoning (Claude's `redacted_thinking`), opaque, to be handed back unchanged. */
  | { type: 'reasoning-redacted'; data: string }
  | { type: 'tool-call-start'; index: number; id: string; name: string }
  | { type: 'tool-call-delta'; index: number; argumentsDelta: string }
  /** `arguments` is the complete JSON text; it always equals the concatenated deltas. */
  | { type: 'tool-call-end'; index: number; arguments: string }
  | { type: 'finish'; reason: FinishReason; usage: Usage; diagnostics?: Diagnostics }
  | { type: 'error'; error: GatewayError };

// Events already in hand travel as an EventList, which only core and the pipeline's stages look inside
// (src/core/event-list.ts); everyone else makes one with replayEvents and reads one with foldEvents.
export { foldEvents, replayEvents } from './event-list.js';
