/**
 * The inspector's view of the prompted lane: a model's text parsed as a reply would be (the same parser,
 * stages and diagnostics), and a request rendered as the model would be sent it. No upstream involved.
 */
import { defaultTimeouts, defaultUpstreamLimits } from '../config/normalize-config.js';
import { resolveModel, resolveModelFor } from '../config/resolve-model.js';
import type { GatewayConfig, ProviderConfig } from '../config/config-types.js';
import type { AgentSyntaxRegistry } from '../core/agent-text-syntax.js';
import { chatRequestFrom, type ChatRequest } from '../core/chat-request.js';
import { GatewayError, gatewayError, invalidRequest } from '../core/gateway-error.js';
import type { Message } from '../core/message.js';
import { RequestCaches } from '../core/request-caches.js';
import type { ResolvedModel, ToolCallingMode } from '../core/resolved-model.js';
import type { ProviderKindLookup } from '../core/provider-types.js';
import type { ServerDirectory } from '../core/server-directory.js';
import { replayEvents, type StreamEvent } from '../core/stream-event.js';
import type { ToolChoice, ToolDefinition } from '../core/tool-definition.js';
import type { ToolFormat } from '../core/tool-format.js';
import type { Warning } from '../core/warning.js';
import type { AccessPolicy } from './access-policy.js';
import { DiagnosticsCollector } from './diagnostics-collector.js';
import { parsePromptedReply } from './parse-prompted-reply.js';
import { preparePromptedRequest } from './prepare-prompted-request.js';
import { ToolPromptCache } from './tool-prompt-cache.js';
import { validateChatInput } from './validate-chat-input.js';

/**
 * Which syntax to use: a family by id, or a model name whose family is looked up as a request's would be.
 * `access` is the client key's policy: a key that may not use a configured model cannot inspect it either
 * (its per-model settings would tell what the key may not reach).
 */
export type InspectionTarget = { family?: string; model?: string; access?: AccessPolicy | null };

export type FamilyChoice = {
  family: string;
  /**
   * How the family was found: named, from a configured provider's model (overrides apply), from what the
   * server behind a configured provider reports the model to be (its name names no family), or from the name alone.
   */
  source: 'family' | 'config' | 'server' | 'model-name';
  model: ResolvedModel;
  /** A configured model: the lane a chat request to it takes now (its `toolCalling`, with the server found behind it). */
  lane?: ToolCallingMode;
};

export type ParseInspection = FamilyChoice & { events: AsyncIterable<StreamEvent> };

export type RenderedCall = { name: string; arguments: string; family: string; agentFormats: Record<string, string> };

export type RenderInspection = FamilyChoice & { messages: Message[]; warnings: Warning[]; calls: RenderedCall[] };

export type InspectorDependencies = {
  config: GatewayConfig;
  /** What each provider kind says of its models (the provider registry's lookup). */
  kinds: ProviderKindLookup;
  toolFormats: ReadonlyMap<string, ToolFormat>;
  agentSyntaxes: AgentSyntaxRegistry;
  /** The app's caches (src/core/request-caches.ts); fresh ones when absent. */
  caches?: RequestCaches;
  /** What answers each provider, so that a configured model's lane is the one its requests take. */
  servers?: ServerDirectory;
};

/** Stands in for a provider when a bare model name is inspected: the prompted lane, no per-model settings. */
const namesOnly: ProviderConfig = {
  name: 'inspector',
  type: 'openai-compatible',
  baseUrl: '',
  headers: {},
  timeouts: defaultTimeouts,
  limits: defaultUpstreamLimits,
  toolCalling: 'prompted',
  models: {},
};

export class ToolCallInspector {
  private readonly caches: RequestCaches;
  private readonly toolPrompts: ToolPromptCache;

  constructor(private readonly dependencies: InspectorDependencies) {
    this.caches = dependencies.caches ?? new RequestCaches();
    this.toolPrompts = new ToolPromptCache(this.caches);
  }

  families(): string[] {
    return [...this.dependencies.toolFormats.keys()];
  }

  agentFormats(): string[] {
    return [...this.dependencies.agentSyntaxes.syntaxes.keys()];
  }

  choose(target: InspectionTarget): FamilyChoice {
    if (target.family !== undefined) {
      if (!this.dependencies.toolFormats.has(target.family)) {
        throw gatewayError('unknown_family', {
          message: `Unknown family '${target.family}'. Known families: ${this.families().join(', ')}.`,
          param: 'family',
        });
      }
      const model: ResolvedModel = {
        id: target.family,
        provider: namesOnly.name,
        providerType: namesOnly.type,
        model: target.family,
        family: target.family,
        toolCalling: 'prompted',
      };
      return { family: target.family, source: 'family', model };
    }
    if (target.model === undefined) throw invalidRequest("Give 'model' or 'family'.", 'model');
    const configured = this.configuredModel(target.model);
    if (configured) target.access?.checkModel(configured);
    const model = configured ?? resolveModelFor(this.dependencies.kinds, namesOnly, target.model, target.model, this.caches.modelFamilies);
    // A family with no registered format runs as generic JSON, exactly as a chat request would.
    const family = this.dependencies.toolFormats.has(model.family) ? model.family : 'generic-json';
    const choice: FamilyChoice = {
      family,
      source: configured ? (configured.familyFromServer === undefined ? 'config' : 'server') : 'model-name',
      model: { ...model, family, toolCalling: 'prompted' },
    };
    if (configured) choice.lane = configured.toolCalling;
    return choice;
  }

  /** `chunks` is the text as the upstream would have streamed it: each piece is pushed to the parser on its own. */
  parse(target: InspectionTarget, chunks: readonly string[], tools: ToolDefinition[], parallelToolCalls?: boolean): ParseInspection {
    const choice = this.choose(target);
    const request = this.request(choice.model, [], tools, undefined, parallelToolCalls);
    const upstream: StreamEvent[] = [{ type: 'response-start', id: 'inspection', model: choice.model.model, warnings: [] }];
    for (const chunk of chunks) upstream.push({ type: 'text-delta', delta: chunk });
    upstream.push({ type: 'finish', reason: { unified: 'stop', raw: 'stop' }, usage: {} });
    const events = parsePromptedReply(replayEvents(upstream), {
      format: this.format(choice.family),
      request,
      parse: tools.length > 0,
      agentFormat: { type: 'structured', name: 'openai' },
      diagnostics: new DiagnosticsCollector(tools),
      warnings: [],
    });
    return { ...choice, events };
  }

  render(
    target: InspectionTarget,
    messages: Message[],
    tools: ToolDefinition[],
    toolChoice: ToolChoice | undefined,
    calls: readonly { name: string; arguments: string }[],
  ): RenderInspection {
    const choice = this.choose(target);
    const format = this.format(choice.family);
    const request = this.request(choice.model, messages, tools, toolChoice);
    const prepared = preparePromptedRequest(request, format, this.toolPrompts, this.caches);
    const syntaxes = [...this.dependencies.agentSyntaxes.syntaxes.values()];
    const rendered = calls.map((call) => ({
      name: call.name,
      arguments: call.arguments,
      family: format.renderCall(call),
      agentFormats: Object.fromEntries(syntaxes.map((syntax) => [syntax.id, syntax.renderCall(call)])),
    }));
    return { ...choice, messages: prepared.request.messages, warnings: prepared.warnings, calls: rendered };
  }

  /** `provider/model` of a configured provider resolves as a request's would; anything else is a bare name. */
  private configuredModel(model: string): ResolvedModel | undefined {
    try {
      return resolveModel(
        this.dependencies.kinds,
        this.dependencies.config,
        model,
        undefined,
        this.caches.modelFamilies,
        this.dependencies.servers,
      );
    } catch (error) {
      if (GatewayError.isInstance(error) && error.status === 404) return undefined;
      throw error;
    }
  }

  private format(family: string): ToolFormat {
    const format = this.dependencies.toolFormats.get(family);
    if (!format) throw gatewayError('internal_error', { message: `No tool format is registered for family '${family}'.` });
    return format;
  }

  private request(
    model: ResolvedModel,
    messages: Message[],
    tools: ToolDefinition[],
    toolChoice?: ToolChoice,
    parallelToolCalls?: boolean,
  ): ChatRequest {
    const input = { model: model.id, messages, tools, toolChoice, parallelToolCalls };
    validateChatInput(input, this.caches);
    return chatRequestFrom(input, model);
  }
}
