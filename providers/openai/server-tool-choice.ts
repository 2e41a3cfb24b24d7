/** The tools and tool_choice an inference server is sent where it cannot take the client's choice as given. */
// - Ollama's OpenAI-compatible `/v1` has no tool_choice: its ChatCompletionRequest has no such field
//   (https://github.com/ollama/ollama/blob/main/openai/openai.go), so every offered tool is rendered and
//   parsed whatever the client chose. `none` is kept by not offering the tools; a forced call is said to
//   be unenforceable, as the native Ollama provider does (providers/ollama/convert-to-ollama-tools.ts).
// - llama-server reads tool_choice as a string (`json_value(body, "tool_choice", std::string("auto"))` in
//   tools/server/server-common.cpp, `oaicompat_chat_params_parse`): OpenAI's named-function object is a
//   type error there, quietly read as "auto". The named tool alone with "required", which its grammar
//   enforces, is the same demand in words it takes.
// - llama-server reads `parallel_tool_calls` as false when it is not sent (`json_value(body,
//   "parallel_tool_calls", false)`, same function), where OpenAI's default is true, and its tool-call grammar
//   then ends generation after the first call (common/chat.cpp). A client that did not ask for one call
//   gets OpenAI's default, said out loud.
import type { ChatRequest } from '../../src/core/chat-request.js';
import type { Warning } from '../../src/core/warning.js';

export type ServerTools = Pick<ChatRequest, 'tools' | 'toolChoice'>;

/** The request itself when the server takes its tools and choice as they are (the common case: no copy). */
export function toolsForServer(request: ChatRequest): ServerTools {
  const { tools, toolChoice } = request;
  if (!tools?.length || toolChoice === undefined) return request;
  if (request.model.server === 'ollama' && toolChoice.type === 'none') return { tools: undefined, toolChoice: undefined };
  if (request.model.server === 'llama.cpp' && toolChoice.type === 'tool') {
    const named = tools.filter((tool) => tool.name === toolChoice.name);
    if (named.length > 0) return { tools: named, toolChoice: { type: 'required' } };
  }
  return request;
}

/** The `parallel_tool_calls` to send: the client's, else true where the server's own default would be one call. */
export function parallelToolCallsForServer(request: ChatRequest): ChatRequest['parallelToolCalls'] {
  // A null reads as not sent there too (json_value falls back to its default on null).
  if (request.model.server === 'llama.cpp') return request.parallelToolCalls ?? true;
  return request.parallelToolCalls;
}

/** What Ollama's `/v1` cannot enforce of the request's tool choice. */
export function toolChoiceWarnings(request: ChatRequest): Warning[] {
  const choice = request.toolChoice;
  if (request.model.server !== 'ollama' || !request.tools?.length || (choice?.type !== 'required' && choice?.type !== 'tool')) return [];
  const forced = choice.type === 'tool' ? `forcing '${choice.name}'` : "'required'";
  return [
    {
      code: 'unsupported-parameter',
      message: `Ollama does not support 'tool_choice': ${forced} cannot be enforced; the model may answer without a tool call or call another tool`,
    },
  ];
}
