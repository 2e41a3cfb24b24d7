/**
 * The refusals that move a model's tools from the server to the gateway: a server that refuses native tools
 * for a model `auto` sent natively (vLLM without a tool parser) has it prompted from then on, and one that
 * cannot render tools through the model's template (llama-server without Jinja) gets them written into the
 * prompt by the gateway, until the refusal is forgotten (src/pipeline/model-refusals.ts).
 */
import { toolCallingSetting } from '../config/resolve-model.js';
import type { ChatRequest } from '../core/chat-request.js';
import type { ProviderContext } from '../core/provider-adapter.js';
import type { RefusalMemories } from '../core/refusal-memory.js';
import type { ResolvedModel } from '../core/resolved-model.js';
import type { ServerDirectory } from '../core/server-directory.js';
import { ModelRefusals } from './model-refusals.js';
import { isNativeToolsRefusal } from './native-tools-refused.js';
import type { ProviderDirectory } from './provider-directory.js';
import { isTemplateToolsRefusal } from './template-tools-refused.js';

export class ToolLaneRefusals {
  private readonly templateToolsRefused: ModelRefusals;

  /** `servers`: without it, no server's lane was detected, so none is remembered as refusing native tools. */
  constructor(
    private readonly providers: ProviderDirectory,
    refusals: RefusalMemories,
    private readonly servers: ServerDirectory | undefined,
  ) {
    this.templateToolsRefused = new ModelRefusals(
      refusals,
      "the server cannot render tools through the model's template: the gateway writes them into the prompt until it asks the server again",
    );
  }

  /** Whether the prompted lane may leave the tools to the server's template (it has not refused them lately). */
  serverMayRenderTools(model: ResolvedModel): boolean {
    return !this.templateToolsRefused.has(model);
  }

  /** The server could not render the tools the prompted lane left to it: true when the gateway is to write them itself. */
  templateRefused(model: ResolvedModel, error: unknown, context: ProviderContext): boolean {
    if (!isTemplateToolsRefusal(error)) return false;
    this.templateToolsRefused.remember(model, error as Error, context);
    return true;
  }

  /**
   * The server refused native tools for a model that `auto` sent natively (vLLM without a tool parser):
   * remembered, so the model is prompted from now on, and true when this request is to be prompted too.
   * An explicit `toolCalling: native` is the operator's word and keeps the error.
   */
  promptedAfterRefusal(model: ResolvedModel, request: ChatRequest, error: unknown, context: ProviderContext): boolean {
    const { servers } = this;
    if (!servers || !request.tools?.length || !isNativeToolsRefusal(error)) return false;
    if (toolCallingSetting(this.providers.config(model.provider), model.model) !== 'auto') return false;
    servers.rememberNativeRefused(model.provider, model.model);
    // A server without Jinja refuses the tools whichever lane sends them: the prompted lane renders them itself.
    if (isTemplateToolsRefusal(error)) this.templateToolsRefused.remember(model, error as Error, context);
    context.log.warn(
      { provider: model.provider, model: model.model, reason: (error as Error).message },
      'the server refused native tools for this model: it is prompted until native tools are tried again',
    );
    return true;
  }
}
