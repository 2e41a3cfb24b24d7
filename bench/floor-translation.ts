/**
 * The translation every gateway that reads what it forwards must do, shared by the two floors
 * (fastify-floor.ts on the design's stack, translating-floor.ts on node:http alone): a new upstream body
 * with the model swapped, and the reply rebuilt member by member.
 */
import type { Agent, Dispatcher } from 'undici';
import { nativeModel } from './gateway-config.js';

export type ChatBody = { model?: unknown; messages?: unknown; tools?: unknown; tool_choice?: unknown; stream?: unknown };
type UpstreamCall = { id: string; type: string; function: { name: string; arguments: string } };
export type UpstreamCompletion = {
  id: string;
  created: number;
  choices: { message: { content?: string | null; tool_calls?: UpstreamCall[] }; finish_reason: string }[];
  usage?: unknown;
};

/**
 * The request to the fake upstream, on the bench's paths for its two replies (fake-replies.ts: one tool call
 * whole, 500 chunks streamed), with a new body: one JSON.stringify of a new object, as any translating gateway writes.
 */
export function sendUpstream(dispatcher: Agent, origin: string, body: ChatBody): Promise<Dispatcher.ResponseData> {
  const stream = body.stream === true;
  return dispatcher.request({
    origin,
    path: stream ? '/chunks-500/v1/chat/completions' : '/tool-call/v1/chat/completions',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: nativeModel, messages: body.messages, tools: body.tools, tool_choice: body.tool_choice, stream }),
  });
}

/** The reply rebuilt member by member, as any translating gateway must (never the upstream's object as sent). */
export function rebuiltCompletion(completion: UpstreamCompletion, model: unknown): Record<string, unknown> {
  const choice = completion.choices[0];
  const message = choice?.message;
  const toolCalls = message?.tool_calls?.map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.function.name, arguments: call.function.arguments },
  }));
  return {
    id: completion.id,
    object: 'chat.completion',
    created: completion.created,
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: message?.content ?? null, tool_calls: toolCalls },
        finish_reason: choice?.finish_reason,
      },
    ],
    usage: completion.usage,
  };
}
