/**
 * One target's plan, from the client's own request: the request as this target is sent it (the agent format's
 * calls made structured again, the key's tools, fields only Claude takes), then the lane the target resolved
 * to (native: src/pipeline/native-lane.ts; prompted: src/pipeline/prompted-lane.ts). Every fallback is planned
 * again from the same input, so a prompted fallback of a native model gets the tools in its own syntax.
 */
import { defaultRetries } from '../config/normalize-config.js';
import { chatRequestFrom, type ChatInput, type ChatRequest } from '../core/chat-request.js';
import type { ProviderContext } from '../core/provider-adapter.js';
import { refusalMemories } from '../core/refusal-memory.js';
import type { RequestCaches } from '../core/request-caches.js';
import type { ResolvedModel } from '../core/resolved-model.js';
import { applyAgentFormatToRequest, type AgentFormat } from './agent-format/agent-format.js';
import type { ChatPipelineDependencies } from './chat-pipeline-dependencies.js';
import type { ChatRun, RunOptions } from './chat-run.js';
import { withoutClaudeOnlyFields } from './claude-only-fields.js';
import { DiagnosticsCollector } from './diagnostics-collector.js';
import { NativeLane } from './native-lane.js';
import { PromptedLane } from './prompted-lane.js';
import type { ProviderDirectory } from './provider-directory.js';
import { ResponseFormatPlacement } from './response-format-placement.js';
import { restrictTools } from './restrict-tools.js';
import type { AttemptCount } from './stream-with-retries.js';
import { ToolFormatLookup } from './tool-format-lookup.js';
import { ToolLaneRefusals } from './tool-lane-refusals.js';

export class TargetPlanner {
  private readonly nativeLane: NativeLane;
  private readonly promptedLane: PromptedLane;
  private readonly toolRefusals: ToolLaneRefusals;

  constructor(
    private readonly dependencies: ChatPipelineDependencies,
    private readonly providers: ProviderDirectory,
    caches: RequestCaches,
  ) {
    const refusals = dependencies.refusals ?? refusalMemories();
    const responseFormats = new ResponseFormatPlacement(providers, refusals, dependencies.schemaCheck, dependencies.repairJson);
    this.toolRefusals = new ToolLaneRefusals(providers, refusals, dependencies.servers);
    const toolFormats = new ToolFormatLookup(dependencies.toolFormats);
    this.nativeLane = new NativeLane(this, providers, toolFormats, this.toolRefusals, responseFormats, dependencies);
    this.promptedLane = new PromptedLane(this, providers, caches, toolFormats, this.toolRefusals, responseFormats, dependencies);
  }

  /**
   * Resolves once the target's upstream answered. Not an async function: the lane's own promise is the
   * plan's (an async plan would wrap it in one more, a promise and a microtask per request). `attempts`:
   * the run's count, carried over every target and every plan of one.
   */
  plan(model: ResolvedModel, input: ChatInput, context: ProviderContext, options: RunOptions, attempts: AttemptCount): Promise<ChatRun> {
    const agentFormat: AgentFormat = options.agentFormat ?? { type: 'structured', name: 'openai' };
    // A copy: each target's plan adds its own warnings, and a fallback must not inherit the failed one's.
    const routeWarnings = [...(input.warnings ?? [])];
    const { access } = options;
    const request: ChatRequest = applyAgentFormatToRequest(chatRequestFrom(input, model), agentFormat);
    const toolPolicy = access?.limitsTools ? access : undefined;
    if (toolPolicy) restrictTools(request, toolPolicy, routeWarnings);
    withoutClaudeOnlyFields(request, this.providers.config(model.provider).type, routeWarnings);
    // A tool set whose schemas the server refused for this model lately goes to the prompted lane at once.
    const planned = this.toolRefusals.laneFor(model, request, routeWarnings);
    request.model = planned;
    const retries = {
      settings: this.providers.config(model.provider).retries ?? defaultRetries,
      attempts,
      observer: this.dependencies.resilience,
    };
    const diagnostics = new DiagnosticsCollector(request.tools ?? []);
    for (const warning of routeWarnings) diagnostics.warn(warning);
    return planned.toolCalling === 'native'
      ? this.nativeLane.run(planned, request, agentFormat, toolPolicy, diagnostics, routeWarnings, retries, input, context, options)
      : this.promptedLane.run(planned, request, agentFormat, diagnostics, routeWarnings, retries, input, context, options);
  }
}
