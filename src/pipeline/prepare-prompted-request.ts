/**
 * The prompted lane's way out: tools written into the system prompt in the family's syntax,
 * earlier calls and results rendered as text, and no native tool fields left for the upstream; or,
 * where the server renders them through the model's own template (server-renders-tools.ts), the tools
 * and history sent structurally with `tool_choice: "none"`. Either way the reply is parsed by the
 * gateway, and the family's special tokens are named so that the adapter asks the server to keep them.
 */
import { chatRequestFrom, type ChatRequest } from '../core/chat-request.js';
import type { RequestCaches } from '../core/request-caches.js';
import type { ToolChoice, ToolDefinition } from '../core/tool-definition.js';
import type { ToolFormat } from '../core/tool-format.js';
import type { Warning } from '../core/warning.js';
import {
  reasoningKeptAfter,
  templateKwargsOf,
  withReasoningTheTemplateKeeps,
  type TemplateKwargs,
} from '../core/reasoning-kept-by-template.js';
import { reasoningFieldOf } from '../core/reasoning-field.js';
import type { Message } from '../core/message.js';
import { withReasoningInText } from './reasoning-in-text.js';
import { insertToolPrompt } from './insert-tool-prompt.js';
import { serverRendersTools } from './server-renders-tools.js';
import type { ToolPromptCache } from './tool-prompt-cache.js';

export type PreparedPromptedRequest = {
  request: ChatRequest;
  warnings: Warning[];
  /** Whether the reply should be parsed for calls (tools offered and tool_choice not `none`). */
  parse: boolean;
  /** The tools and history went structurally, for the server's chat template to render. */
  serverRendered: boolean;
};

export type PromptedRequestOptions = {
  /** False once the server refused to render tools for this model (template-tools-refused.ts). */
  serverMayRenderTools?: boolean;
};

const noChoice: ToolChoice = { type: 'none' };

export function preparePromptedRequest(
  request: ChatRequest,
  format: ToolFormat,
  cache: ToolPromptCache,
  caches?: Pick<RequestCaches, 'systemsWithToolPrompt'>,
  options: PromptedRequestOptions = {},
): PreparedPromptedRequest {
  const choice: ToolChoice = request.toolChoice ?? { type: 'auto' };
  const offered = request.tools ?? [];
  const active = choice.type === 'none' ? [] : offered;
  if (active.length > 0 && options.serverMayRenderTools !== false && serverRendersTools(request.model, format, choice)) {
    return { request: templateRendered(request, format, active, choice), warnings: [], parse: true, serverRendered: true };
  }
  const { prompt: toolPrompt, warnings } = active.length ? cache.render(format, active, choice) : { prompt: '', warnings: [] };
  // Results become user turns below, which would hide from the adapter the turns the template keeps the
  // reasoning of: the reasoning it drops goes now, the rest is replayed whole.
  const kwargs = templateKwargsOf(request);
  const kept = withReasoningTheTemplateKeeps(request.messages, request.model.family, kwargs);
  const history = keptReasoningInText(format.renderHistory(kept ?? request.messages), request, format, kept !== undefined, kwargs);
  const placed = toolPrompt !== '' && format.placeToolPrompt !== undefined ? format.placeToolPrompt(history, toolPrompt) : undefined;
  const messages = placed
    ? insertToolPrompt(placed.messages, placed.rest, caches?.systemsWithToolPrompt)
    : insertToolPrompt(history, toolPrompt, caches?.systemsWithToolPrompt);
  const prepared = chatRequestFrom(request, request.model, messages);
  // Emptied rather than deleted: `delete` would turn the copy into a slow dictionary-mode object.
  prepared.tools = undefined;
  prepared.toolChoice = undefined;
  prepared.parallelToolCalls = undefined;
  if (kept !== undefined) prepared.replayReasoning = true;
  if (active.length > 0) {
    markPrompted(prepared, format, active, choice);
    if (format.thinkingWithTools !== undefined && takesThinkingKwargs(request.model.server))
      askForThinkingHistory(prepared, format.thinkingWithTools.chatTemplateKwargs);
  }
  return { request: prepared, warnings, parse: active.length > 0, serverRendered: false };
}

/**
 * For a server that takes no reasoning field, the history with the reasoning the template keeps written
 * into the turns' text: all that is left of it when the dropped turns' reasoning was already taken out
 * (`pruned`), else that of the turns the template keeps in the rendered history. The same array otherwise.
 */
function keptReasoningInText(
  history: Message[],
  request: ChatRequest,
  format: ToolFormat,
  pruned: boolean,
  kwargs: TemplateKwargs,
): Message[] {
  const render = format.renderReasoningInText;
  if (render === undefined || reasoningFieldOf(request.model.server) !== undefined) return history;
  const after = pruned ? -1 : reasoningKeptAfter(history, request.model.family, kwargs);
  return after === undefined ? history : withReasoningInText(history, render, after);
}

/** The messages as the client sent them, the tools beside them, and the server told to call none. */
function templateRendered(request: ChatRequest, format: ToolFormat, active: ToolDefinition[], choice: ToolChoice): ChatRequest {
  const prepared = chatRequestFrom(request, request.model);
  prepared.tools = active;
  prepared.toolChoice = noChoice;
  prepared.parallelToolCalls = undefined;
  markPrompted(prepared, format, active, choice);
  return prepared;
}

/**
 * The servers whose DeepSeek V4 encoding reads the kwargs (vLLM's deepseek_v4 tokenizer, SGLang's V4
 * template) and that take a turn's reasoning (build-openai-request-body.ts); others are not sent them.
 */
function takesThinkingKwargs(server: ChatRequest['model']['server']): boolean {
  return server === 'vllm' || server === 'sglang';
}

/**
 * The server keeps the turns' reasoning as the model's encoder does with tools declared: the family's
 * chat-template kwargs under the client's own (a value the client sent wins), and the reasoning replayed.
 */
function askForThinkingHistory(prepared: ChatRequest, kwargs: Readonly<Record<string, unknown>>): void {
  const extras = prepared.openaiExtras ?? {};
  const clientKwargs = extras['chat_template_kwargs'];
  const merged = typeof clientKwargs === 'object' && clientKwargs !== null ? { ...kwargs, ...clientKwargs } : { ...kwargs };
  prepared.openaiExtras = { ...extras, chat_template_kwargs: merged };
  prepared.replayReasoning = true;
}

function markPrompted(prepared: ChatRequest, format: ToolFormat, active: ToolDefinition[], choice: ToolChoice): void {
  prepared.promptedTools = active;
  prepared.promptedToolChoice = choice;
  prepared.keepSpecialTokens = format.specialTokens ?? [];
}
