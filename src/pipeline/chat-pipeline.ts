/**
 * Runs one chat: resolves the model, picks the lane (native or prompted), calls the provider,
 * and returns the neutral event stream every route renders. Streaming and non-streaming share it.
 */
import { resolveModel } from '../config/resolve-model.js';
import type { GatewayConfig, ProviderConfig } from '../config/config-types.js';
import type { ChatInput, ChatRequest } from '../core/chat-request.js';
import { GatewayError } from '../core/gateway-error.js';
import type { ProviderAdapter, ProviderContext } from '../core/provider-adapter.js';
import type { ResolvedModel, ToolCallingMode } from '../core/resolved-model.js';
import type { StreamEvent } from '../core/stream-event.js';
import type { ToolFormat } from '../core/tool-format.js';
import { DiagnosticsCollector } from './diagnostics-collector.js';
import { finalizeEvents } from './finalize-events.js';
import { parseTextIntoCalls } from './parse-text-into-calls.js';
import { preparePromptedRequest } from './prepare-prompted-request.js';
import { validateChatInput } from './validate-chat-input.js';

export type ChatPipelineDependencies = {
  config: GatewayConfig;
  providers: ReadonlyMap<string, ProviderAdapter>;
  toolFormats: ReadonlyMap<string, ToolFormat>;
};

export type ChatRun = {
  model: ResolvedModel;
  toolCalling: ToolCallingMode;
  /** The family used in the prompted lane (absent in the native lane). */
  toolFormat?: string;
  events: AsyncIterable<StreamEvent>;
};

export class ChatPipeline {
  constructor(private readonly dependencies: ChatPipelineDependencies) {}

  resolve(modelString: string, providerName?: string): ResolvedModel {
    return resolveModel(this.dependencies.config, modelString, providerName);
  }

  providerNames(): string[] {
    return Object.keys(this.dependencies.config.providers);
  }

  providerConfig(name: string): ProviderConfig {
    const config = this.dependencies.config.providers[name];
    if (!config) throw new GatewayError({ status: 500, type: 'server_error', message: `Provider '${name}' is not configured.` });
    return config;
  }

  provider(name: string): ProviderAdapter {
    const adapter = this.dependencies.providers.get(name);
    if (!adapter) throw new GatewayError({ status: 500, type: 'server_error', message: `Provider '${name}' has no adapter.` });
    return adapter;
  }

  toolFormat(family: string): ToolFormat {
    return this.dependencies.toolFormats.get(family) ?? this.dependencies.toolFormats.get('generic-json') ?? missingFormat(family);
  }

  /** Resolves after the upstream accepted the request (2xx headers); earlier failures reject. */
  async run(input: ChatInput, context: ProviderContext): Promise<ChatRun> {
    validateChatInput(input);
    const { model: modelString, provider: providerName, warnings: routeWarnings = [], ...rest } = input;
    const model = this.resolve(modelString, providerName);
    const request: ChatRequest = { ...rest, model };
    const adapter = this.provider(model.provider);
    const availableTools = (request.tools ?? []).map((tool) => tool.name);
    const diagnostics = new DiagnosticsCollector(availableTools);
    for (const warning of routeWarnings) diagnostics.warn(warning);

    if (model.toolCalling === 'native') {
      const events = await adapter.stream(request, context);
      return { model, toolCalling: 'native', events: finalizeEvents(events, { warnings: routeWarnings, diagnostics, provider: model.provider }) };
    }

    const format = this.toolFormat(model.family);
    const prepared = preparePromptedRequest(request, format);
    for (const warning of prepared.warnings) diagnostics.warn(warning);
    const upstream = await adapter.stream(prepared.request, context);
    const parsed = prepared.parse
      ? parseTextIntoCalls(upstream, {
          parser: format.createParser(request.tools ?? []),
          diagnostics,
          singleCall: request.parallelToolCalls === false,
        })
      : upstream;
    return {
      model,
      toolCalling: 'prompted',
      toolFormat: format.family,
      events: finalizeEvents(parsed, { warnings: [...routeWarnings, ...prepared.warnings], diagnostics, provider: model.provider }),
    };
  }
}

function missingFormat(family: string): never {
  throw new GatewayError({ status: 500, type: 'server_error', message: `No tool format is registered for family '${family}'.` });
}
