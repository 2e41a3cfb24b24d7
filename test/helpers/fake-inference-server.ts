/**
 * The common core of the fake inference servers (vLLM, SGLang, llama-server, Ollama, LM Studio): a route
 * table on 127.0.0.1:0 and an OpenAI chat endpoint whose scripted model writes real markers, decoded by
 * each server's own rules.
 */
import type http from 'node:http';
import { writeOpenAiChatReply, type FakeOpenAiChatReply } from './fake-openai-upstream.js';
import { constrainedPieces, type Constraint } from './constrained-decoding.js';
import { harmonyReasoningAndContent } from './harmony-output.js';
import { startLoopbackServer, type RecordedRequest } from './loopback-server.js';
import { callsOf, generate, messagesText, tokenize, toolNames, weatherCall, type Generation } from './scripted-generation.js';
import type { ScriptedCall, ScriptedModel } from './scripted-models.js';

export type RouteHandler = (request: RecordedRequest, response: http.ServerResponse) => void | Promise<void>;

export type FakeInferenceServer = {
  /** The server root (OpenAI-compatible endpoints live under `${url}/v1`). */
  url: string;
  port: number;
  /** Every request, in arrival order. */
  requests: RecordedRequest[];
  /** The bodies of the requests to one path (`/v1/chat/completions`, `/completion`, …). */
  bodiesOf(path: string): Record<string, unknown>[];
  close(): Promise<void>;
};

/** Starts a server answering `"METHOD /path"` routes; anything else goes to `notFound`. `port`: see startLoopbackServer. */
export async function startFakeInferenceServer(
  routes: Record<string, RouteHandler>,
  notFound: RouteHandler,
  options: { port?: number } = {},
): Promise<FakeInferenceServer> {
  const server = await startLoopbackServer(
    async (request, response) => {
      const path = request.path.split('?')[0] ?? request.path;
      await (routes[`${request.method} ${path}`] ?? notFound)(request, response);
    },
    options.port === undefined ? {} : { port: options.port },
  );
  return {
    url: server.url,
    port: server.port,
    requests: server.requests,
    bodiesOf: (path) =>
      server.requests
        .filter((request) => request.path.split('?')[0] === path)
        .map((request) => (request.body ?? {}) as Record<string, unknown>),
    close: server.close,
  };
}

export function sendJson(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

export function bodyOf(request: RecordedRequest): Record<string, unknown> {
  return typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, unknown>) : {};
}

/**
 * The first earlier call whose `arguments` text is not JSON: vLLM (chat_utils.py `_postprocess_messages`,
 * json.loads on each) and llama-server (common_chat_msgs_parse_oaicompat, json::parse) parse them into
 * objects for the chat template before anything is generated, and fail the request on this one.
 */
export function unparsableCallArguments(body: Record<string, unknown>): string | undefined {
  const messages = Array.isArray(body.messages) ? (body.messages as { role?: unknown; tool_calls?: unknown }[]) : [];
  for (const message of messages) {
    if (message.role !== 'assistant' || !Array.isArray(message.tool_calls)) continue;
    for (const call of message.tool_calls as { function?: { arguments?: unknown } }[]) {
      const text = call.function?.arguments;
      if (typeof text !== 'string' || text === '') continue;
      try {
        JSON.parse(text);
      } catch {
        return text;
      }
    }
  }
  return undefined;
}

/** What a server's reply is made of before it is written as JSON or SSE. */
export type Decoded = { reasoning?: string[]; content: string[] };

/** How one server kind treats an OpenAI chat request: each its own rules, from its own source. */
export type ChatRules = {
  /** A refusal (status and body in the server's own envelope), checked before anything is generated. */
  refuse?(body: Record<string, unknown>, model: ScriptedModel): { status: number; body: unknown } | undefined;
  /** Whether the request's `tools` are rendered into the prompt by the chat template. */
  rendersTools(body: Record<string, unknown>): boolean;
  /** Whether the server parses the model's call into `tool_calls` for this request. */
  parsesCalls(body: Record<string, unknown>, model: ScriptedModel): boolean;
  /** The calls it returns when it parses (default: the model's, scripted-generation.ts `callsOf`). */
  parsedCalls?(body: Record<string, unknown>): readonly ScriptedCall[];
  /** The text the server returns when it does not parse (special tokens per its rules), as deltas. */
  decode(generation: Generation, body: Record<string, unknown>, model: ScriptedModel): Decoded;
  /** The grammar the request asks for, read from the server's own fields (constrained-decoding.ts). */
  constraint?(body: Record<string, unknown>): Constraint | undefined;
  /** The message field reasoning goes in (vLLM: `reasoning`; llama.cpp, Ollama: `reasoning_content`). */
  reasoningField: 'reasoning' | 'reasoning_content';
  /** Whether `<think>…</think>` becomes reasoning by default (llama.cpp, Ollama; vLLM only with a reasoning parser). */
  splitsThinking: boolean;
};

/** Whether the model saw the tool: rendered from `tools`, or named in the conversation's text. */
export function sawTool(body: Record<string, unknown>, rendersTools: boolean): boolean {
  return (rendersTools && toolNames(body.tools).includes(weatherCall.name)) || messagesText(body).includes(weatherCall.name);
}

/**
 * Splits `<think>…</think>` off the front of a reply into reasoning, as llama.cpp's `--reasoning-format`
 * default and Ollama's thinking parser do (vLLM does it only when started with `--reasoning-parser`).
 */
export function splitThinking(pieces: string[]): Decoded {
  const text = pieces.join('');
  const match = /^<think>([\s\S]*?)<\/think>\s*/.exec(text);
  if (!match) return { content: pieces };
  return { reasoning: [match[1] ?? ''], content: text.slice(match[0].length) === '' ? [] : [text.slice(match[0].length)] };
}

/**
 * What a parsing server leaves beside the call: the model's words before it, special tokens removed, its
 * thinking split off where the server does that (Harmony's analysis channel is always reasoning).
 */
export function besideCall(model: ScriptedModel, generation: Generation, splitsThinking: boolean): Decoded {
  if (model.harmony) return { reasoning: [harmonyReasoningAndContent(generation).reasoning], content: [] };
  const preamble = tokenize(model, model.preamble)
    .filter((token) => !token.special)
    .map((token) => token.text)
    .join('');
  return splitsThinking ? splitThinking([preamble]) : { content: [preamble] };
}

/** Answers `POST /v1/chat/completions` for `model` under `rules`, whole or streamed as the request asks. */
export async function serveChat(
  request: RecordedRequest,
  response: http.ServerResponse,
  model: ScriptedModel,
  rules: ChatRules,
): Promise<void> {
  const body = bodyOf(request);
  const refusal = rules.refuse?.(body, model);
  if (refusal) return sendJson(response, refusal.status, refusal.body);
  // A grammar over the whole reply leaves no room for call markup: the model writes the JSON.
  const constraint = rules.constraint?.(body);
  if (constraint) {
    const constrained: FakeOpenAiChatReply = { type: 'chat', content: constrainedPieces(constraint), finishReason: 'stop' };
    return writeOpenAiChatReply({ ...constrained, reasoningField: rules.reasoningField }, request, response);
  }
  const generation = generate(model, sawTool(body, rules.rendersTools(body)));
  let reply: FakeOpenAiChatReply;
  if (generation.called && rules.parsesCalls(body, model)) {
    const decoded = besideCall(model, generation, rules.splitsThinking);
    reply = {
      type: 'chat',
      ...(decoded.reasoning ? { reasoning: decoded.reasoning } : {}),
      ...(decoded.content.join('') === '' ? {} : { content: decoded.content }),
      toolCalls: (rules.parsedCalls?.(body) ?? callsOf(model)).map((call) => ({ name: call.name, arguments: call.arguments })),
      finishReason: 'tool_calls',
    };
  } else {
    const decoded = rules.decode(generation, body, model);
    reply = {
      type: 'chat',
      content: decoded.content,
      ...(decoded.reasoning ? { reasoning: decoded.reasoning } : {}),
      finishReason: 'stop',
    };
  }
  await writeOpenAiChatReply({ ...reply, reasoningField: rules.reasoningField }, request, response);
}
