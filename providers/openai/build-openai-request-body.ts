/** Neutral ChatRequest → the JSON body of an OpenAI Chat Completions request (streamed, or whole for non-streaming clients). */
import type { ChatRequest, ResponseFormat } from '../../src/core/chat-request.js';
import type { ToolChoice } from '../../src/core/tool-definition.js';
import { convertToOpenAiMessages } from './convert-to-openai-messages.js';

export type OpenAiFlavour = 'openai' | 'openai-compatible';

function convertToolChoice(choice: ToolChoice): unknown {
  return choice.type === 'tool' ? { type: 'function', function: { name: choice.name } } : choice.type;
}

/** The neutral json_schema format flattens OpenAI's `json_schema` member; the wire nests it again. */
function convertResponseFormat(format: ResponseFormat | null | undefined): unknown {
  if (format?.type !== 'json_schema') return format;
  const { type, ...jsonSchema } = format;
  return { type, json_schema: jsonSchema };
}

function setIfGiven(body: Record<string, unknown>, key: string, value: unknown): void {
  // undefined = not given; null, 0 and false are values and go upstream as they are.
  if (value !== undefined) body[key] = value;
}

export function buildOpenAiRequestBody(request: ChatRequest, flavour: OpenAiFlavour, options: { stream: boolean } = { stream: true }): Record<string, unknown> {
  const body: Record<string, unknown> = { ...request.openaiExtras };
  body.model = request.model.model;
  body.messages = convertToOpenAiMessages(request.messages);
  if (request.tools?.length) {
    body.tools = request.tools.map((tool) => {
      const definition: Record<string, unknown> = { name: tool.name, parameters: tool.parameters };
      if (tool.description !== undefined) definition.description = tool.description;
      if (tool.strict !== undefined) definition.strict = tool.strict;
      return { type: 'function', function: definition };
    });
    if (request.toolChoice) body.tool_choice = convertToolChoice(request.toolChoice);
    setIfGiven(body, 'parallel_tool_calls', request.parallelToolCalls);
  }
  // OpenAI deprecated max_tokens for max_completion_tokens; most compatible servers know only max_tokens.
  setIfGiven(body, flavour === 'openai' ? 'max_completion_tokens' : 'max_tokens', request.maxOutputTokens);
  setIfGiven(body, 'temperature', request.temperature);
  setIfGiven(body, 'top_p', request.topP);
  setIfGiven(body, 'stop', request.stop);
  setIfGiven(body, 'seed', request.seed);
  setIfGiven(body, 'presence_penalty', request.presencePenalty);
  setIfGiven(body, 'frequency_penalty', request.frequencyPenalty);
  setIfGiven(body, 'response_format', convertResponseFormat(request.responseFormat));
  setIfGiven(body, 'reasoning_effort', request.reasoningEffort);
  setIfGiven(body, 'user', request.user);
  if (options.stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  } else {
    // Explicit: some compatible servers stream unless told otherwise.
    body.stream = false;
  }
  return body;
}
