/**
 * The refusals that move a model's tools from the server to the gateway: a server that refuses native tools
 * for a model `auto` sent natively (vLLM without a tool parser) has it prompted from then on, one whose
 * grammar compiler refuses a tool set's schemas (llama-server's json-schema-to-grammar) has that tool set
 * prompted for the model, and one that cannot render tools through the model's template (llama-server
 * without Jinja) gets them written into the prompt by the gateway, until the refusal is forgotten
 * (src/pipeline/model-refusals.ts, tool-schemas-refused.ts).
 */
import { toolCallingSetting } from '../config/resolve-model.js';
import type { ChatRequest } from '../core/chat-request.js';
import type { ProviderContext } from '../core/provider-adapter.js';
import type { RefusalMemories } from '../core/refusal-memory.js';
import type { ResolvedModel } from '../core/resolved-model.js';
import type { ServerDirectory } from '../core/server-directory.js';
import type { Warning } from '../core/warning.js';
import { ModelRefusals } from './model-refusals.js';
import { isNativeToolsRefusal } from './native-tools-refused.js';
import type { ProviderDirectory } from './provider-directory.js';
import { isTemplateToolsRefusal } from './template-tools-refused.js';
import { isToolSchemaRefusal, ToolSchemasRefused } from './tool-schemas-refused.js';

export class ToolLaneRefusals {
  private readonly templateToolsRefused: ModelRefusals;
  private readonly toolSchemasRefused: ToolSchemasRefused;

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
    this.toolSchemasRefused = new ToolSchemasRefused(refusals);
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
    if (!servers || !request.tools?.length || !isNativeToolsRefusal(error) || !this.auto(model)) return false;
    servers.rememberNativeRefused(model.provider, model.model);
    // A server without Jinja refuses the tools whichever lane sends them: the prompted lane renders them itself.
    if (isTemplateToolsRefusal(error)) this.templateToolsRefused.remember(model, error as Error, context);
    context.log.warn(
      { provider: model.provider, model: model.model, reason: (error as Error).message },
      'the server refused native tools for this model: it is prompted until native tools are tried again',
    );
    return true;
  }

  /**
   * The model to plan `request` with: the same model prompted when `auto` sends it natively and the server
   * refused these tools' schemas for it lately (the client warned in `warnings`), else `model` itself.
   */
  laneFor(model: ResolvedModel, request: ChatRequest, warnings: Warning[]): ResolvedModel {
    if (model.toolCalling !== 'native' || !request.tools?.length || request.toolChoice?.type === 'none') return model;
    if (!this.toolSchemasRefused.has(model, request) || !this.auto(model)) return model;
    warnings.push({
      code: 'unsupported-parameter',
      message:
        "The upstream refused these tools' schemas for this model earlier (its grammar compiler could not convert them): the tools were written into the prompt and the calls read from the reply by the gateway.",
    });
    return { ...model, toolCalling: 'prompted' };
  }

  /**
   * The server's grammar compiler refused the tool schemas `sent` carried natively (tool-schemas-refused.ts)
   * for a model `auto` sent natively: the model and `request`'s schemas (the plan's, as laneFor reads them) are
   * remembered, and the warning for the client is returned for the same request to be planned again in the
   * prompted lane. Undefined for any other error, and under an explicit `toolCalling: native` (the operator's
   * word), which keeps the error.
   */
  promptedAfterSchemaRefusal(
    model: ResolvedModel,
    request: ChatRequest,
    sent: ChatRequest,
    error: unknown,
    context: ProviderContext,
  ): Warning | undefined {
    if (!isToolSchemaRefusal(error, sent) || !this.auto(model)) return undefined;
    const { message } = error as Error;
    if (this.toolSchemasRefused.remember(model, request))
      context.log.warn(
        { provider: model.provider, model: model.model, tools: sent.tools?.map((tool) => tool.name), reason: message },
        "the server's grammar compiler refused these tools' schemas: they are prompted for this model until native tools are tried again",
      );
    return {
      code: 'unsupported-parameter',
      message: `The upstream could not compile the tools' schemas (${message}): the tools were written into the prompt and the calls read from the reply by the gateway.`,
    };
  }

  private auto(model: ResolvedModel): boolean {
    return toolCallingSetting(this.providers.config(model.provider), model.model) === 'auto';
  }
}
