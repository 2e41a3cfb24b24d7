/**
 * The pipeline's stages, one ordered list per lane: what each does, where it lives, and why it sits where
 * it does. ChatPipeline.run and plan take the request-side steps in this order, and apply the reply side
 * from these lists themselves (applyReplyStages); docs/request-walkthrough.md follows one request through.
 */
import type { ChatRequest } from '../core/chat-request.js';
import type { RandomHexPool } from '../core/random-hex-pool.js';
import type { ResolvedModel } from '../core/resolved-model.js';
import type { StreamEvent } from '../core/stream-event.js';
import type { ToolDefinition } from '../core/tool-definition.js';
import type { ToolFormat } from '../core/tool-format.js';
import type { AccessPolicy } from './access-policy.js';
import type { AgentFormat } from './agent-format/agent-format.js';
import { applyAgentFormatToEvents } from './agent-format/agent-format.js';
import type { DiagnosticsCollector } from './diagnostics-collector.js';
import { checkResponseFormat, type ResponseFormatOptions } from './check-response-format.js';
import { dropDisallowedCalls } from './drop-disallowed-calls.js';
import { finalizeEvents, type FinalizeOptions } from './finalize-events.js';
import { parseTextIntoCalls, type ParseOptions } from './parse-text-into-calls.js';
import { repairNativeArguments, type JsonRepair } from './repair-native-arguments.js';
import { mayLoseHarmonyRecipient, noticeLostHarmonyRecipient } from './vllm-harmony-notice.js';

/** Before the upstream is called, the call itself, or over the reply's events on their way back. */
export type StagePhase = 'request' | 'upstream' | 'reply';

/** One stage: `file` is where its code lives (under src/ unless it says otherwise). */
export type StageInfo = { name: string; phase: StagePhase; file: string; why: string };

/** What the reply stages of one planned target read. */
export type ReplyPlan = {
  model: ResolvedModel;
  /** The request as the client sent it (after agent_format and the key's tool policy): its tools are the roster. */
  request: ChatRequest;
  /** The format of a family (the model's is read; the prompted lane's own, or the one for markup a server left in native text), looked up when first needed. */
  toolFormat: (family: string) => ToolFormat;
  /** The tools the reply is parsed for: in the native lane only when the server may leave their markup as text. */
  parseTools: ToolDefinition[];
  /** The template opened reasoning, so the text begins inside it. */
  startsInReasoning: boolean;
  agentFormat: AgentFormat;
  diagnostics: DiagnosticsCollector;
  finalize: FinalizeOptions;
  repairJson?: JsonRepair;
  /** The client key's policy when it limits tools. */
  toolPolicy?: AccessPolicy;
  callIds?: RandomHexPool;
  /** How the reply is checked against the request's JSON response format; unchecked when absent. */
  responseFormat?: ResponseFormatOptions;
};

/** A stage over the reply's events: applied when `applies`, in list order. */
export type ReplyStage = StageInfo & {
  phase: 'reply';
  applies(plan: ReplyPlan): boolean;
  apply(events: AsyncIterable<StreamEvent>, plan: ReplyPlan): AsyncIterable<StreamEvent>;
};

export type LaneStage = StageInfo | ReplyStage;

/** Every lane starts here (ChatPipeline.run, then plan). */
const requestStages: readonly StageInfo[] = [
  {
    name: 'validate-input',
    phase: 'request',
    file: 'pipeline/validate-chat-input.ts',
    why: 'What every inbound API shares (messages, tool names, roles) is checked once, before any work.',
  },
  {
    name: 'resolve-model',
    phase: 'request',
    file: 'config/resolve-model.ts',
    why: 'The provider prefix, alias, family and lane decide everything after; an unknown model is a 404 before anything is sent.',
  },
  {
    name: 'check-access',
    phase: 'request',
    file: 'pipeline/access-policy.ts',
    why: "The client key's model globs are checked on the resolved model, so an alias cannot get around them.",
  },
  {
    name: 'plan-fallbacks',
    phase: 'request',
    file: 'pipeline/fallback-targets.ts',
    why: 'The targets tried when this one fails before its first byte; each is planned again from the client request.',
  },
  {
    name: 'agent-format-request',
    phase: 'request',
    file: 'pipeline/agent-format/agent-format.ts',
    why: 'Calls the client wrote as text in its history (agent_format) become structured again before any lane reads them.',
  },
  {
    name: 'restrict-tools',
    phase: 'request',
    file: 'pipeline/restrict-tools.ts',
    why: 'Tools the key may not use leave the request (with a warning) before any prompt is written from it.',
  },
];

const callUpstream: StageInfo = {
  name: 'call-upstream',
  phase: 'upstream',
  file: 'pipeline/stream-with-retries.ts',
  why: 'The provider adapter sends the neutral request; failures before the first byte are retried (and then fall back) since the client has seen nothing.',
};

const checkFormat: ReplyStage = {
  name: 'check-response-format',
  phase: 'reply',
  file: 'pipeline/check-response-format.ts',
  why: 'A reply asked to be JSON (response_format) is read, repaired once and validated after every call is known (a reply that calls a tool is not checked), before the client sees the final text.',
  applies: (plan) => plan.responseFormat !== undefined,
  apply: (events, plan) => (plan.responseFormat ? checkResponseFormat(events, plan.responseFormat) : events),
};

const agentFormatReply: ReplyStage = {
  name: 'agent-format-reply',
  phase: 'reply',
  file: 'pipeline/agent-format/agent-format.ts',
  why: 'Calls go to the client as it wants them (structured, or re-rendered as text) once every call is final.',
  applies: () => true,
  apply: (events, plan) => applyAgentFormatToEvents(events, plan.agentFormat, plan.diagnostics),
};

const finalize: ReplyStage = {
  name: 'finalize',
  phase: 'reply',
  file: 'pipeline/finalize-events.ts',
  why: 'Last, so it sees what every stage reported: warnings and diagnostics go onto the finish, errors become one redacted error event.',
  applies: () => true,
  apply: (events, plan) => finalizeEvents(events, plan.finalize),
};

/** After plan, for every lane (ChatPipeline.run): they need the target that answered and the run's listeners. */
const runTail: readonly StageInfo[] = [
  {
    name: 'cap-whole-reply',
    phase: 'reply',
    file: 'pipeline/whole-reply-bound.ts',
    why: "A reply read whole is bounded by the answering provider's maxResponseBytes (its time by server.wholeReplyTimeoutMs, armed by the route).",
  },
  {
    name: 'tap-reply',
    phase: 'reply',
    file: 'pipeline/tap-reply.ts',
    why: 'Tells the listeners (token quota, metrics, traces) how the reply ended, after every stage shaped it.',
  },
];

/**
 * The reply's parser maker, returned by a function rather than written inline in the options: under tsx a
 * function that gets a name from its property costs a name patched onto it per request.
 */
function parserMaker(plan: ReplyPlan): ParseOptions['createParser'] {
  return (inReasoning) => plan.toolFormat(plan.model.family).createParser(plan.parseTools, { startsInReasoning: inReasoning });
}

function parseWith(plan: ReplyPlan): ParseOptions {
  return {
    createParser: parserMaker(plan),
    startsInReasoning: plan.startsInReasoning,
    diagnostics: plan.diagnostics,
    singleCall: plan.request.parallelToolCalls === false,
    // `passthrough` promises the upstream's text untouched, whichever lane read the calls out of it.
    keepRawText: plan.agentFormat.type === 'passthrough',
    ...(plan.callIds ? { callIds: plan.callIds } : {}),
  };
}

/** The native lane: the upstream parses calls itself; the gateway only reads what it may have left as text. */
export const nativeLane: readonly LaneStage[] = [
  ...requestStages,
  callUpstream,
  {
    name: 'parse-left-markup',
    phase: 'reply',
    file: 'pipeline/parse-text-into-calls.ts',
    why: 'An inference server without a tool or reasoning parser for this model hands its markup on as text: the family parser reads it first, so every later stage sees calls.',
    applies: (plan) => plan.startsInReasoning || plan.parseTools.length > 0,
    apply: (events, plan) => parseTextIntoCalls(events, parseWith(plan)),
  },
  {
    name: 'notice-lost-harmony-recipient',
    phase: 'reply',
    file: 'pipeline/vllm-harmony-notice.ts',
    why: "vLLM can drop a Harmony call's recipient: said in diagnostics, once the calls are known.",
    applies: (plan) => mayLoseHarmonyRecipient(plan.model.server, plan.model.family, plan.parseTools.length),
    apply: (events, plan) => noticeLostHarmonyRecipient(events, plan.diagnostics),
  },
  {
    name: 'repair-native-arguments',
    phase: 'reply',
    file: 'pipeline/repair-native-arguments.ts',
    why: "Broken JSON in a native call's arguments is repaired with the prompted lane's lenient reader before the policy or the client reads them.",
    applies: (plan) => plan.repairJson !== undefined,
    apply: (events, plan) =>
      plan.repairJson ? repairNativeArguments(events, { repair: plan.repairJson, diagnostics: plan.diagnostics }) : events,
  },
  {
    name: 'drop-disallowed-calls',
    phase: 'reply',
    file: 'pipeline/drop-disallowed-calls.ts',
    why: 'A call to a tool the key may not use never reaches the client, whichever stage produced it.',
    applies: (plan) => plan.toolPolicy !== undefined,
    apply: (events, plan) =>
      plan.toolPolicy ? dropDisallowedCalls(events, (name) => plan.toolPolicy?.allowsTool(name) ?? true, plan.diagnostics) : events,
  },
  checkFormat,
  agentFormatReply,
  finalize,
  ...runTail,
];

/** The prompted lane: the tools are written into the prompt in the family's syntax and parsed back out of the text. */
export const promptedLane: readonly LaneStage[] = [
  ...requestStages,
  {
    name: 'prepare-prompt',
    phase: 'request',
    file: 'pipeline/prepare-prompted-request.ts',
    why: "The tools and the call history are written in the family's syntax (or left to a server that renders the model's template), after the request is final.",
  },
  callUpstream,
  {
    name: 'record-reply',
    phase: 'reply',
    file: 'pipeline/recent-replies.ts',
    why: 'With debug.recentReplies, the raw text and what the client got are kept for the inspector: it wraps the parse stages below.',
  },
  {
    name: 'parse-calls',
    phase: 'reply',
    file: 'pipeline/parse-text-into-calls.ts',
    why: "The family's parser turns the text back into calls (only names from the request's tools), and reads a reasoning block the template opened.",
    applies: (plan) => plan.parseTools.length > 0 || plan.startsInReasoning,
    apply: (events, plan) => parseTextIntoCalls(events, parseWith(plan)),
  },
  checkFormat,
  agentFormatReply,
  finalize,
  ...runTail,
];

function isReplyStage(stage: LaneStage): stage is ReplyStage {
  return 'apply' in stage;
}

/** The lane's reply stages, in order, over the upstream's events (the run tail is applied by ChatPipeline.run). */
export function applyReplyStages(
  lane: readonly LaneStage[],
  events: AsyncIterable<StreamEvent>,
  plan: ReplyPlan,
): AsyncIterable<StreamEvent> {
  let result = events;
  for (const stage of lane) if (isReplyStage(stage) && stage.applies(plan)) result = stage.apply(result, plan);
  return result;
}
