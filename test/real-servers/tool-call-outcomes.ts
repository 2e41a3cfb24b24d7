/**
 * One weather question through the gateway per API (Chat Completions and Responses with the real `openai`
 * client, Messages over fetch), whole or streamed, read back into the same shape: the calls, the API's own
 * finish signal, and the visible text.
 */
import type OpenAI from 'openai';
import { anthropicEvents, post } from '../routes/messages/messages-test-kit.js';

export type Outcome = {
  calls: { name: string; arguments: unknown }[];
  /** Chat: finish_reason; Responses: the status; Messages: stop_reason. */
  finish: string | null | undefined;
  /** The text shown to the user (content, output_text, text blocks). */
  text: string;
  /** Chat Completions only: the codes of `diagnostics.warnings`. */
  warnings?: string[];
};

type WithDiagnostics = { diagnostics?: { warnings?: { code: string }[] } };

function warningCodes(carrier: unknown): string[] {
  return ((carrier as WithDiagnostics).diagnostics?.warnings ?? []).map((warning) => warning.code);
}

export type Api = 'chat-completions' | 'responses' | 'messages';

const question = 'What is the weather in Paris?';
const parameters = { type: 'object', properties: { city: { type: 'string', description: 'The city' } }, required: ['city'] };
const description = 'Current weather in a city';

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function chatCompletions(client: OpenAI, model: string, stream: boolean): Promise<Outcome> {
  const request = {
    model,
    messages: [{ role: 'user' as const, content: question }],
    tools: [{ type: 'function' as const, function: { name: 'get_weather', description, parameters } }],
  };
  if (!stream) {
    const completion = await client.chat.completions.create(request);
    const choice = completion.choices[0];
    return {
      calls: (choice?.message.tool_calls ?? []).map((call) =>
        call.type === 'function' ? { name: call.function.name, arguments: parsed(call.function.arguments) } : { name: '', arguments: null },
      ),
      finish: choice?.finish_reason,
      text: choice?.message.content ?? '',
      warnings: warningCodes(completion),
    };
  }
  const calls: { name: string; arguments: string }[] = [];
  let finish: string | null = null;
  let text = '';
  const warnings: string[] = [];
  for await (const chunk of await client.chat.completions.create({ ...request, stream: true })) {
    warnings.push(...warningCodes(chunk));
    const choice = chunk.choices[0];
    if (!choice) continue;
    text += choice.delta.content ?? '';
    for (const fragment of choice.delta.tool_calls ?? []) {
      const call = (calls[fragment.index] ??= { name: '', arguments: '' });
      call.name += fragment.function?.name ?? '';
      call.arguments += fragment.function?.arguments ?? '';
    }
    if (choice.finish_reason) finish = choice.finish_reason;
  }
  return { calls: calls.map((call) => ({ name: call.name, arguments: parsed(call.arguments) })), finish, text, warnings };
}

type ResponseItem = { type: string; name?: string; arguments?: string; content?: { type: string; text?: string }[] };

function fromResponseItems(items: ResponseItem[], status: string | undefined): Outcome {
  return {
    calls: items
      .filter((item) => item.type === 'function_call')
      .map((item) => ({ name: item.name ?? '', arguments: parsed(item.arguments ?? '') })),
    finish: status,
    text: items
      .filter((item) => item.type === 'message')
      .flatMap((item) => item.content ?? [])
      .map((part) => part.text ?? '')
      .join(''),
  };
}

async function responses(client: OpenAI, model: string, stream: boolean): Promise<Outcome> {
  const request = {
    model,
    input: question,
    tools: [{ type: 'function' as const, name: 'get_weather', description, parameters, strict: false }],
  };
  if (!stream) {
    const response = await client.responses.create(request);
    return fromResponseItems(response.output as ResponseItem[], response.status);
  }
  const items: ResponseItem[] = [];
  let status: string | undefined;
  for await (const event of await client.responses.create({ ...request, stream: true })) {
    if (event.type === 'response.output_item.done') items.push(event.item as ResponseItem);
    if (event.type === 'response.completed' || event.type === 'response.incomplete') status = event.response.status;
  }
  return fromResponseItems(items, status);
}

type AnthropicBlock = { type: string; name?: string; input?: unknown; text?: string };

async function messages(baseUrl: string, model: string, stream: boolean): Promise<Outcome> {
  const response = await post(`${baseUrl}/v1/messages`, {
    model,
    max_tokens: 512,
    stream,
    messages: [{ role: 'user', content: question }],
    tools: [{ name: 'get_weather', description, input_schema: parameters }],
  });
  if (response.status !== 200) throw new Error(`/v1/messages answered ${response.status}: ${response.text}`);
  if (!stream) {
    const body = JSON.parse(response.text) as { content: AnthropicBlock[]; stop_reason: string | null };
    return {
      calls: body.content.filter((block) => block.type === 'tool_use').map((block) => ({ name: block.name ?? '', arguments: block.input })),
      finish: body.stop_reason,
      text: body.content
        .filter((block) => block.type === 'text')
        .map((block) => block.text ?? '')
        .join(''),
    };
  }
  const blocks: { type: string; name: string; json: string; text: string }[] = [];
  let finish: string | null = null;
  for (const event of anthropicEvents(response.text)) {
    const index = event.index as number;
    if (event.type === 'content_block_start') {
      const block = event.content_block as AnthropicBlock;
      blocks[index] = { type: block.type, name: block.name ?? '', json: '', text: block.text ?? '' };
    }
    const delta = event.delta as { type?: string; partial_json?: string; text?: string; stop_reason?: string } | undefined;
    const block = blocks[index];
    if (event.type === 'content_block_delta' && block) {
      block.json += delta?.partial_json ?? '';
      block.text += delta?.type === 'text_delta' ? (delta.text ?? '') : '';
    }
    if (event.type === 'message_delta') finish = delta?.stop_reason ?? null;
  }
  return {
    calls: blocks
      .filter((block) => block.type === 'tool_use')
      .map((block) => ({ name: block.name, arguments: parsed(block.json || '{}') })),
    finish,
    text: blocks
      .filter((block) => block.type === 'text')
      .map((block) => block.text)
      .join(''),
  };
}

/** Asks for the weather through `api`, whole or streamed. */
export function askForWeather(api: Api, gateway: { baseUrl: string; client: OpenAI }, model: string, stream: boolean): Promise<Outcome> {
  switch (api) {
    case 'chat-completions':
      return chatCompletions(gateway.client, model, stream);
    case 'responses':
      return responses(gateway.client, model, stream);
    case 'messages':
      return messages(gateway.baseUrl, model, stream);
  }
}

/** Each API's way of saying "the turn ended in a tool call". */
export const toolCallFinish: Record<Api, string> = { 'chat-completions': 'tool_calls', responses: 'completed', messages: 'tool_use' };
