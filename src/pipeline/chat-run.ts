/**
 * What a chat run is to its callers (the routes): the options they hand in, the progress they read when it
 * fails, and the run they get back once an upstream answered.
 */
import type { GatewayError } from '../core/gateway-error.js';
import type { ResolvedModel, ToolCallingMode } from '../core/resolved-model.js';
import type { StreamEvent } from '../core/stream-event.js';
import type { Usage } from '../core/usage.js';
import type { AccessPolicy } from './access-policy.js';
import type { AgentFormat } from './agent-format/agent-format.js';
import type { TargetProgress } from './try-targets.js';
import type { ReplySummary } from './tap-reply.js';

export type RunOptions = {
  /** How calls reach the client (agent_format); structured `openai` when absent. */
  agentFormat?: AgentFormat;
  /** The client key's policy (models, tools); absent: full access. */
  access?: AccessPolicy;
  /** Told how the reply ended, when it finishes (token quotas, metrics). */
  onFinish?: (summary: ReplySummary, run: ChatRun) => void;
  /** Told when the reply ends in an error event instead (metrics, traces). */
  onError?: (error: GatewayError, run: ChatRun) => void;
  /**
   * Told, with estimated usage (priced when the model is), when a reply the upstream accepted ends without
   * its usage: an error event, a stream that broke off, a client that left; or when a request is abandoned
   * (its client left, its deadline passed) before the upstream answered, while it was generating. The upstream
   * billed what it generated, so budgets and usage count it too. `model`: the target that was generating.
   */
  onIncomplete?: (usage: Usage, model: ResolvedModel) => void;
  /** Filled in as the run goes, so that a run that fails still says what it tried (the error reply's headers). */
  progress?: RunProgress;
  /** The client's own session id (`x-session-id`): a deployment with session affinity keeps it on one target. */
  sessionId?: string;
};

/** Upstream requests made so far, and the target tried last (absent until one is planned). */
export type RunProgress = TargetProgress;

export type ChatRun = {
  model: ResolvedModel;
  toolCalling: ToolCallingMode;
  /** The family used in the prompted lane (absent in the native lane). */
  toolFormat?: string;
  events: AsyncIterable<StreamEvent>;
  /** Upstream requests made, over every target tried (retries and fallbacks included). */
  attempts: number;
  /** The deployment target that answered (`provider/model`), when the model named a deployment. */
  deployment?: string;
  /** What the reply cost in USD, once its finish event passed and the model's price is known. */
  costUsd?: number;
  /** The cost is the gateway's estimate: the upstream finished without counting the reply's tokens. */
  costEstimated?: true;
};
