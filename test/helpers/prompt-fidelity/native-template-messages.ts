/** A neutral conversation in the shape a chat template reads natively (what a server hands its template). */
// The Chat Completions shape from the real provider conversion, then what servers do before rendering:
// vLLM and llama.cpp parse call arguments into objects for templates that print them with `tojson`
// (`argumentsAs`), and give empty text instead of null content where the template needs it (`nullContent`).
import type { Message } from '../../../src/core/index.js';
import { convertToOpenAiMessages, type OpenAiMessage } from '../../../providers/openai/convert-to-openai-messages.js';
import type { ChatTemplateEntry } from './chat-template-catalogue.js';

type TemplateCall = { id: string; type: 'function'; function: { name: string; arguments: unknown } };

export function nativeTemplateMessages(messages: Message[], entry: ChatTemplateEntry): OpenAiMessage[] {
  const ids = nativeCallIds(messages, entry);
  const shaped = convertToOpenAiMessages(messages).map((original) => {
    const message = renameCallIds(original, ids);
    const calls = message['tool_calls'] as TemplateCall[] | undefined;
    const withCalls =
      calls === undefined || entry.argumentsAs === 'string'
        ? message
        : {
            ...message,
            tool_calls: calls.map((call) => ({
              ...call,
              function: { ...call.function, arguments: JSON.parse(call.function.arguments as string) as unknown },
            })),
          };
    return entry.nullContent === 'keep'
      ? { ...entry.messageDefaults, ...withCalls }
      : { ...entry.messageDefaults, ...withCalls, content: message['content'] ?? '' };
  });
  if (entry.shape === 'gemma4') return foldGemma4Results(shaped);
  return entry.shape === 'one-call-per-turn' ? shaped.flatMap(oneCallPerTurn) : shaped;
}

/** A turn's parallel calls as consecutive assistant messages of one call each, the first keeping the turn's text. */
function oneCallPerTurn(message: OpenAiMessage): OpenAiMessage[] {
  const calls = message['tool_calls'] as TemplateCall[] | undefined;
  if (calls === undefined || calls.length < 2) return [message];
  return calls.map((call, index) => ({ ...message, ...(index === 0 ? {} : { content: '' }), tool_calls: [call] }));
}

/** The conversation's call ids → the model's own, numbered over the conversation. */
function nativeCallIds(messages: Message[], entry: ChatTemplateEntry): Map<string, string> {
  const ids = new Map<string, string>();
  if (entry.nativeCallId === undefined) return ids;
  for (const message of messages)
    if (message.role === 'assistant')
      for (const part of message.content) if (part.type === 'tool-call') ids.set(part.id, entry.nativeCallId(part.name, ids.size));
  return ids;
}

function renameCallIds(message: OpenAiMessage, ids: Map<string, string>): OpenAiMessage {
  if (ids.size === 0) return message;
  const calls = message['tool_calls'] as TemplateCall[] | undefined;
  const resultId = message['tool_call_id'] as string | undefined;
  return {
    ...message,
    ...(calls === undefined ? {} : { tool_calls: calls.map((call) => ({ ...call, id: ids.get(call.id) ?? call.id })) }),
    ...(resultId === undefined ? {} : { tool_call_id: ids.get(resultId) ?? resultId }),
  };
}

/**
 * Gemma 4's tool results are `tool_responses` (name, response object) on the model turn that made the
 * calls, and the model's answer continues that turn (see the template's generation prompt after a
 * `tool_response`): https://ai.google.dev/gemma/docs/core/prompt-formatting-gemma4
 */
function foldGemma4Results(messages: OpenAiMessage[]): OpenAiMessage[] {
  const folded: OpenAiMessage[] = [];
  for (const message of messages) {
    const caller = folded.at(-1);
    if (message['role'] === 'tool' && caller !== undefined) {
      const calls = caller['tool_calls'] as TemplateCall[];
      const name = calls.find((call) => call.id === message['tool_call_id'])?.function.name;
      const responses = (caller['tool_responses'] as unknown[] | undefined) ?? [];
      caller['tool_responses'] = [...responses, { name, response: JSON.parse(message['content'] as string) as unknown }];
      continue;
    }
    if (message['role'] === 'assistant' && caller?.['tool_responses'] !== undefined && caller['content'] === '') {
      caller['content'] = message['content'];
      continue;
    }
    folded.push(message);
  }
  return folded;
}
