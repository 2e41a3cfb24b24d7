/**
 * Where a request's JSON response format goes in each lane: the upstream's own field (each adapter maps it),
 * or the prompt, with the reply checked by the gateway (src/pipeline/native-format-gap.ts says when an
 * upstream cannot take it natively); and the models whose upstream refused the native form, which get it
 * in the prompt until the refusal is forgotten.
 */
import type { ChatRequest } from '../core/chat-request.js';
import type { Logger } from '../core/logger.js';
import type { RefusalMemories } from '../core/refusal-memory.js';
import type { ResolvedModel } from '../core/resolved-model.js';
import type { Warning } from '../core/warning.js';
import type { AgentFormat } from './agent-format/agent-format.js';
import { asksForJson, type ResponseFormatOptions } from './check-response-format.js';
import type { DiagnosticsCollector } from './diagnostics-collector.js';
import { isFormatSchemaTooComplex } from './format-schema-refused.js';
import { ModelRefusals } from './model-refusals.js';
import { nativeFormatGap } from './native-format-gap.js';
import type { ProviderDirectory } from './provider-directory.js';
import type { JsonRepair } from './repair-native-arguments.js';
import { promptForResponseFormat } from './response-format-prompt.js';
import { isResponseFormatRefusal, refusedBesideTools } from './response-format-refused.js';
import { SchemasTooComplex } from './response-format-too-complex.js';
import type { SchemaCheck } from './schema-validators.js';

type JsonFormatType = 'json_object' | 'json_schema';

export class ResponseFormatPlacement {
  /**
   * Models whose upstream refused the native form, by format type: LM Studio refuses `json_object` ("'response_format.type'
   * must be 'json_schema' or 'text'") and takes `json_schema`, which one json_object request must not take from the model.
   */
  private readonly refused: Record<JsonFormatType, ModelRefusals>;
  /** Models whose upstream refused the native form beside tools only (Gemini before Gemini 3). */
  private readonly refusedWithTools: ModelRefusals;
  /** The schemas an upstream's grammar compiler gave up on for a model (response-format-too-complex.ts). */
  private readonly tooComplex: SchemasTooComplex;

  /** `schemaCheck`: replies go unchecked without it; `repairJson`: a reply's broken JSON is checked as received without it. */
  constructor(
    private readonly providers: ProviderDirectory,
    refusals: RefusalMemories,
    private readonly schemaCheck: SchemaCheck | undefined,
    private readonly repairJson: JsonRepair | undefined,
  ) {
    const refusedOf = (type: JsonFormatType) =>
      new ModelRefusals(
        refusals,
        `the upstream refused the native ${type} response format for this model: the gateway enforces it until it tries the native form again`,
      );
    this.refused = { json_object: refusedOf('json_object'), json_schema: refusedOf('json_schema') };
    this.refusedWithTools = new ModelRefusals(
      refusals,
      'the upstream refused the native response format beside tools for this model: the gateway enforces it in requests with tools until it tries the native form again',
    );
    this.tooComplex = new SchemasTooComplex(refusals);
  }

  /**
   * Kinds whose native JSON mode is not used (the scripted model, Bedrock's Converse), `json_object` for Claude
   * (which takes schemas only), and models whose upstream refused the native form before, get the format in
   * their prompt. Other native upstreams get it in their own field (each adapter maps it).
   */
  forNativeLane(request: ChatRequest, diagnostics: DiagnosticsCollector, warnings: Warning[]): ChatRequest {
    const format = request.responseFormat;
    if (!asksForJson(format)) return request;
    const type = this.providers.config(request.model.provider).type;
    const refused =
      this.refused[format.type].has(request.model) || (Boolean(request.tools?.length) && this.refusedWithTools.has(request.model));
    const tooComplex = format.type === 'json_schema' && format.schema !== undefined && this.tooComplex.has(request.model, format.schema);
    const gap = nativeFormatGap(format, type, request.model.model);
    if (!refused && !tooComplex && !gap) return request;
    const why = refused
      ? 'the upstream refused its native form for this model'
      : tooComplex
        ? "the upstream's grammar compiler gave up on this schema for this model"
        : (gap ?? 'the upstream refused its native form for this model');
    const prompted = promptForResponseFormat(request, format, { withTools: Boolean(request.tools?.length), why });
    for (const warning of prompted.warnings) diagnostics.warn(warning);
    warnings.push(...prompted.warnings);
    return prompted.request;
  }

  /**
   * Prompted lane with tools: a native JSON mode would constrain the reply to the schema and leave no
   * room for the family's call markup, so the format is written into the prompt instead and checked by
   * the gateway. Without tools the upstream's own field is kept (its adapter maps it).
   */
  forPromptedLane(request: ChatRequest, parse: boolean, diagnostics: DiagnosticsCollector): { request: ChatRequest; warnings: Warning[] } {
    const format = request.responseFormat;
    if (!asksForJson(format)) return { request, warnings: [] };
    const type = this.providers.config(request.model.provider).type;
    const gap = nativeFormatGap(format, type, request.model.model);
    const refused = this.refused[format.type].has(request.model);
    const tooComplex = format.type === 'json_schema' && format.schema !== undefined && this.tooComplex.has(request.model, format.schema);
    if (!parse && !gap && !refused && !tooComplex) return { request, warnings: [] };
    const why =
      gap ??
      (parse
        ? 'tools are written into the prompt for this model'
        : refused
          ? 'the upstream refused its native form for this model'
          : "the upstream's grammar compiler gave up on this schema for this model");
    const prompted = promptForResponseFormat(request, format, { withTools: parse, why });
    for (const warning of prompted.warnings) diagnostics.warn(warning);
    return prompted;
  }

  /**
   * Learns from an error of a request sent with the format in the upstream's own field: a refusal of that
   * field (response-format-refused.ts), or a grammar compiler that gave up on the schema, not on a tool's
   * (format-schema-refused.ts). True when the request should go again with the format in the prompt
   * (which forNativeLane and forPromptedLane now do for the model).
   */
  learnRefusal(
    model: ResolvedModel,
    sent: ChatRequest,
    error: unknown,
    context: { log: Pick<Logger, 'warn'> },
    diagnostics: DiagnosticsCollector,
    warnings: Warning[],
  ): boolean {
    const format = sent.responseFormat;
    if (format?.type === 'json_schema' && format.schema && isFormatSchemaTooComplex(error, sent)) {
      this.tooComplexNatively(model, { name: format.name, schema: format.schema }, error as Error, context, diagnostics, warnings);
      return true;
    }
    if (!asksForJson(format) || !isResponseFormatRefusal(error)) return false;
    this.refusedNatively(model, format.type, error as Error, context, diagnostics, warnings);
    return true;
  }

  /**
   * The upstream refused the native form of the format for this model: remembered for formats of this type
   * (so later requests prompt it at once), and the client warned, before the same request is sent with the format prompted.
   */
  refusedNatively(
    model: ResolvedModel,
    type: JsonFormatType,
    error: Error,
    context: { log: Pick<Logger, 'warn'> },
    diagnostics: DiagnosticsCollector,
    warnings: Warning[],
  ): void {
    (refusedBesideTools(error) ? this.refusedWithTools : this.refused[type]).remember(model, error, context);
    const refusal: Warning = {
      code: 'unsupported-parameter',
      message: `The upstream refused the native response format (${error.message}): the schema was written into the prompt and the reply checked by the gateway.`,
    };
    diagnostics.warn(refusal);
    warnings.push(refusal);
  }

  /**
   * The upstream's grammar compiler gave up on the format's schema for this model (too complex, too large, timed
   * out): the pair is remembered (so later requests with this schema prompt it at once), and the client warned,
   * before the same request is sent with the format prompted. Logged once per pair.
   */
  tooComplexNatively(
    model: ResolvedModel,
    format: { name: string; schema: Record<string, unknown> },
    error: Error,
    context: { log: Pick<Logger, 'warn'> },
    diagnostics: DiagnosticsCollector,
    warnings: Warning[],
  ): void {
    if (this.tooComplex.remember(model, format.schema))
      context.log.warn(
        { provider: model.provider, model: model.model, format: format.name, reason: error.message },
        "the upstream's grammar compiler gave up on this response format's schema: the gateway enforces it for this model until it tries the native form again",
      );
    const notice: Warning = {
      code: 'unsupported-parameter',
      message: `The upstream could not compile the schema of response_format '${format.name}' (${error.message}): the schema was written into the prompt and the reply checked by the gateway.`,
    };
    diagnostics.warn(notice);
    warnings.push(notice);
  }

  /**
   * How the reply is checked against the requested JSON format, or undefined when none was asked for.
   * Native upstreams are checked too: an upstream whose native form is best effort (json_object modes,
   * Ollama's format on small models) can still answer off-schema, and the client is owed the verdict.
   * agent_format `passthrough` promises the upstream's text untouched (call markup included): its stream
   * goes on as written.
   */
  replyCheck(request: ChatRequest, diagnostics: DiagnosticsCollector, agentFormat: AgentFormat): ResponseFormatOptions | undefined {
    const { schemaCheck, repairJson } = this;
    const format = request.responseFormat;
    if (!schemaCheck || !asksForJson(format)) return undefined;
    const options: ResponseFormatOptions = { format, check: schemaCheck, diagnostics };
    if (repairJson) options.repair = repairJson;
    if (agentFormat.type === 'passthrough') options.streamAsWritten = true;
    return options;
  }
}
