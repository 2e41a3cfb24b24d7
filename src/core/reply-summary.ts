/** How a reply ended, as the pipeline tells its listeners (token quotas, metrics, traces). */
import type { Diagnostics } from './diagnostics.js';
import type { FinishReason } from './finish-reason.js';
import type { Usage } from './usage.js';

export type ReplySummary = {
  usage: Usage;
  finishReason: FinishReason;
  toolCalls: number;
  /** The upstream's response id and model, from its `response-start` (absent if it had none). */
  responseId?: string;
  responseModel?: string;
  diagnostics?: Diagnostics;
  /** `performance.now()` when the first text, reasoning or call reached the stage; undefined if none did. */
  firstTokenAt?: number;
};
