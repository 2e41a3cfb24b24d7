/** Renders each template over the native conversation and over what the prompted lane sends, and compares them. */
// The prompted side runs the real preparation (`preparePromptedRequest`: the family's tool prompt in
// the system message, calls and results rendered by its `renderHistory`), converts the messages as the
// openai-compatible provider does, and renders them with the same template and no tools, as the
// server would.
import { detectModelFamily } from '../../../src/config/detect-model-family.js';
import type { ChatRequest, Message, ToolDefinition, ToolFormat } from '../../../src/core/index.js';
import { RequestCaches } from '../../../src/core/request-caches.js';
import { insertToolPrompt } from '../../../src/pipeline/insert-tool-prompt.js';
import { preparePromptedRequest } from '../../../src/pipeline/prepare-prompted-request.js';
import { ToolPromptCache } from '../../../src/pipeline/tool-prompt-cache.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import type { ChatTemplateEntry } from './chat-template-catalogue.js';
import { answerAfterResults, fidelityMessages, fidelityTools, firstQuestion } from './fidelity-conversation.js';
import { nativeTemplateMessages } from './native-template-messages.js';
import { promptSimilarity } from './prompt-similarity.js';
import { renderChatTemplate } from './render-chat-template.js';

export type PromptFidelity = {
  entry: ChatTemplateEntry;
  family: string;
  nativePrompt: string;
  gatewayPrompt: string;
  /** Token-level LCS ratio of the whole prompts. */
  whole: number;
  /** The same ratio over the call/result section: after the first question, up to the answer that follows the results. */
  callsAndResults: number;
};

export function measurePromptFidelity(entries: readonly ChatTemplateEntry[]): PromptFidelity[] {
  const formats = createToolFormatRegistry();
  const cache = new ToolPromptCache(new RequestCaches());
  return entries.map((entry) => {
    const family = detectModelFamily(entry.model).family;
    const format = formats.get(family);
    if (format === undefined) throw new Error(`No tool format for family ${family} (${entry.model})`);
    const nativeMessages = entry.rendersTools ? fidelityMessages : withFamilyToolPrompt(fidelityMessages, format);
    const tools = entry.rendersTools ? fidelityTools.map(asChatTool) : undefined;
    const nativePrompt = renderChatTemplate(entry, nativeTemplateMessages(nativeMessages, entry), tools);
    const prepared = preparePromptedRequest(fidelityRequest(entry, family), format, cache).request;
    // The chat-template kwargs the prompted lane asks the server for (DeepSeek V4's drop_thinking).
    const kwargs = prepared.openaiExtras?.['chat_template_kwargs'] as Record<string, unknown> | undefined;
    const gatewayPrompt = renderChatTemplate(entry, nativeTemplateMessages(prepared.messages, entry), undefined, kwargs);
    return {
      entry,
      family,
      nativePrompt,
      gatewayPrompt,
      whole: promptSimilarity(nativePrompt, gatewayPrompt),
      callsAndResults: promptSimilarity(callSection(nativePrompt), callSection(gatewayPrompt)),
    };
  });
}

/** The family's tool prompt where the family places it (as the prompted lane does), for a template that writes no tools. */
function withFamilyToolPrompt(messages: Message[], format: ToolFormat): Message[] {
  const prompt = format.renderTools(fidelityTools, { type: 'auto' });
  const placed = format.placeToolPrompt?.(messages, prompt) ?? { messages, rest: prompt };
  return insertToolPrompt(placed.messages, placed.rest);
}

function asChatTool(tool: ToolDefinition): unknown {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } };
}

function fidelityRequest(entry: ChatTemplateEntry, family: string): ChatRequest {
  const model = entry.model;
  return {
    model: {
      id: `local/${model}`,
      provider: 'local',
      providerType: 'openai-compatible',
      model,
      family,
      toolCalling: 'prompted',
      ...(entry.server === undefined ? {} : { server: entry.server }),
    },
    messages: fidelityMessages,
    tools: fidelityTools,
    toolChoice: { type: 'auto' },
  };
}

/** The text between the end of the first question and the start of the answer after the results. */
export function callSection(prompt: string): string {
  const start = prompt.indexOf(firstQuestion);
  const end = prompt.indexOf(answerAfterResults, start);
  if (start === -1 || end === -1) throw new Error('The prompt lost the conversation text that bounds the call/result section');
  return prompt.slice(start + firstQuestion.length, end);
}
