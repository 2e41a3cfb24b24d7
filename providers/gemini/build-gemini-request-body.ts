/** Builds the `generateContent` body for a neutral ChatRequest, with the warnings it produced. */
import type { ChatRequest, ToolChoice, Warning } from '../../src/core/index.js';
import { withGeminiRefSiblingsMoved } from '../../src/core/gemini-ref-siblings.js';
import { convertToGeminiContents } from './convert-to-gemini-contents.js';
import { isGemmaModel } from './is-gemma-model.js';
import type { GeminiFunctionCallingConfig, GeminiGenerationConfig, GeminiRequestBody, GeminiThinkingConfig } from './gemini-wire-types.js';

export type GeminiRequestPlan = { body: GeminiRequestBody; warnings: Warning[] };

/**
 * Gemini 2.5 takes a token budget (0 turns thinking off on Flash; Pro cannot turn it off), Gemini 3 a
 * level. https://ai.google.dev/gemini-api/docs/thinking
 */
const thinkingBudgets: Readonly<Record<string, number>> = { none: 0, minimal: 512, low: 1024, medium: 8192, high: 24576 };

function thinkingConfigFor(request: ChatRequest): GeminiThinkingConfig | undefined {
  if (request.thinkingDisabled) return { thinkingBudget: 0 };
  const effort = request.reasoningEffort;
  if (effort === undefined || effort === null) return undefined;
  if (/(?:^|[/-])gemini-[3-9]/.test(request.model.model))
    return effort === 'none' ? { thinkingLevel: 'minimal' } : { thinkingLevel: effort, includeThoughts: true };
  const budget = thinkingBudgets[effort];
  if (budget === undefined) return undefined;
  return budget === 0 ? { thinkingBudget: 0 } : { thinkingBudget: budget, includeThoughts: true };
}

function functionCallingConfig(choice: ToolChoice | undefined): GeminiFunctionCallingConfig | undefined {
  switch (choice?.type) {
    case undefined:
      return undefined;
    case 'auto':
      return { mode: 'AUTO' };
    case 'none':
      return { mode: 'NONE' };
    case 'required':
      return { mode: 'ANY' };
    case 'tool':
      return { mode: 'ANY', allowedFunctionNames: [choice.name] };
  }
}

/** A value the client gave (not absent, not null): null means "given as nothing", and is not sent. */
function given<Value>(value: Value | null | undefined): value is Value {
  return value !== undefined && value !== null;
}

function generationConfigFor(request: ChatRequest): GeminiGenerationConfig {
  const config: GeminiGenerationConfig = {};
  if (given(request.temperature)) config.temperature = request.temperature;
  if (given(request.topP)) config.topP = request.topP;
  // generationConfig.topK (https://ai.google.dev/api/generate-content#generationconfig), from a client's top_k.
  const topK = request.openaiExtras?.top_k;
  if (typeof topK === 'number') config.topK = topK;
  if (given(request.maxOutputTokens)) config.maxOutputTokens = request.maxOutputTokens;
  if (given(request.stop)) config.stopSequences = request.stop;
  if (given(request.seed)) config.seed = request.seed;
  if (given(request.presencePenalty)) config.presencePenalty = request.presencePenalty;
  if (given(request.frequencyPenalty)) config.frequencyPenalty = request.frequencyPenalty;
  const format = request.responseFormat;
  if (format?.type === 'json_object') config.responseMimeType = 'application/json';
  if (format?.type === 'json_schema') {
    config.responseMimeType = 'application/json';
    // Gemini takes nothing but `$` keywords beside a `$ref` (src/core/gemini-ref-siblings.ts).
    if (format.schema) config.responseJsonSchema = withGeminiRefSiblingsMoved(format.schema);
  }
  const thinking = thinkingConfigFor(request);
  if (thinking) config.thinkingConfig = thinking;
  setLogprobs(config, request.openaiExtras);
  return config;
}

/** The client's Chat Completions fields that Gemini takes under its own names, in generationConfig. */
const logprobsFields: ReadonlySet<string> = new Set(['logprobs', 'top_logprobs']);

/**
 * `logprobs` → `responseLogprobs`, `top_logprobs` → `logprobs` (the number of top candidates per step,
 * 1–20, and only beside responseLogprobs: https://ai.google.dev/api/generate-content#generationconfig).
 * A top_logprobs of 0 asks for the chosen tokens alone, which is what responseLogprobs without it gives.
 */
function setLogprobs(config: GeminiGenerationConfig, extras: Record<string, unknown> | undefined): void {
  if (extras?.logprobs !== true) return;
  config.responseLogprobs = true;
  const top = extras.top_logprobs;
  if (typeof top === 'number' && top > 0) config.logprobs = top;
}

function unsupportedParameter(name: string, provider: string): Warning {
  return {
    code: 'unsupported-parameter',
    message: `Parameter '${name}' is not supported by Gemini provider '${provider}' and was ignored.`,
  };
}

function collectWarnings(request: ChatRequest, provider: string): Warning[] {
  const warnings: Warning[] = [];
  if (given(request.user)) warnings.push(unsupportedParameter('user', provider));
  // Gemini decides alone how many calls a turn makes.
  if (request.parallelToolCalls === false) warnings.push(unsupportedParameter('parallel_tool_calls', provider));
  for (const name of Object.keys(request.openaiExtras ?? {}))
    if (name !== 'top_k' && !logprobsFields.has(name)) warnings.push(unsupportedParameter(name, provider));
  return warnings;
}

export function buildGeminiRequestBody(request: ChatRequest, provider: string): GeminiRequestPlan {
  const conversation = convertToGeminiContents(request.messages);
  const body: GeminiRequestBody = { contents: conversation.contents };
  const system = conversation.systemInstruction;
  if (system && isGemmaModel(request.model.model)) {
    // As Gemma's own chat template does: the instructions open the first user turn.
    const first = body.contents[0];
    if (first?.role === 'user') first.parts.unshift(...system.parts);
    else body.contents.unshift({ role: 'user', parts: system.parts });
  } else if (system) body.systemInstruction = system;
  if (request.tools && request.tools.length > 0) {
    body.tools = [
      {
        functionDeclarations: request.tools.map((tool) => ({
          name: tool.name,
          ...(tool.description === undefined ? {} : { description: tool.description }),
          parametersJsonSchema: withGeminiRefSiblingsMoved(tool.parameters),
        })),
      },
    ];
    const calling = functionCallingConfig(request.toolChoice);
    if (calling) body.toolConfig = { functionCallingConfig: calling };
  }
  const generationConfig = generationConfigFor(request);
  if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
  return { body, warnings: collectWarnings(request, provider) };
}
