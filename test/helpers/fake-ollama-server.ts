/**
 * A fake Ollama (`ollama serve`, models pulled from its library) on 127.0.0.1:0 whose scripted models write
 * real markers: `/api/version`, `/api/tags`, `/api/show` with each model's `capabilities`, `/api/chat`, and
 * the OpenAI-compatible `/v1/models` and `/v1/chat/completions`. Follows
 * https://github.com/ollama/ollama/blob/main/server/routes.go (ShowHandler, ChatHandler: "does not support
 * tools" for a model without the `tools` capability; tool calls parsed for models with it),
 * .../api/types.go and .../openai/openai.go. Its runner is a llama-server started without `--special`
 * (llm/llama_server.go), so a template-only model's special tokens are removed. Not modelled: models
 * with a built-in parser (gpt-oss, Qwen3) keep their parser's tokens even without tools
 * (`preservedTokensForCompletion`); here a request without tools gets their text stripped like any other.
 * A chat longer than the context is truncated or refused as Ollama does (ollama-context-fit.ts).
 */
import type http from 'node:http';
import { describeOllamaModel, writeOllamaChatReply } from './fake-ollama-upstream.js';
import {
  besideCall,
  bodyOf,
  sawTool,
  sendJson,
  serveChat,
  splitThinking,
  startFakeInferenceServer,
  type ChatRules,
  type FakeInferenceServer,
} from './fake-inference-server.js';
import { constrainedPieces, ollamaFormatConstraint } from './constrained-decoding.js';
import type { RecordedRequest } from './loopback-server.js';
import { ollamaContextRefusal } from './ollama-context-fit.js';
import { callsOf, generate, llamaCppPieces } from './scripted-generation.js';
import type { ScriptedModel } from './scripted-models.js';

export type FakeOllamaServerOptions = {
  models: readonly ScriptedModel[];
  /**
   * A version before 0.5.0 (December 2024), when `format` was a string that could only be "json": a schema
   * object fails to bind into api.ChatRequest (400 with Go's unmarshal error), and the OpenAI-compatible
   * endpoint maps `json_object` only, answering a `json_schema` request in prose (openai/openai.go then).
   */
  beforeFormatSchemas?: boolean;
};

function hasTools(body: Record<string, unknown>): boolean {
  return Array.isArray(body.tools) && body.tools.length > 0;
}

const supportsTools = (model: ScriptedModel) => model.ollamaCapabilities.includes('tools');
const thinks = (model: ScriptedModel) => model.ollamaCapabilities.includes('thinking');

/** Why Ollama refuses a chat request for `model` (undefined: not pulled), if it does (ChatHandler); `truncate` as the request says. */
function refusal(
  body: Record<string, unknown>,
  model: ScriptedModel | undefined,
  truncate: boolean,
): { status: number; message: string } | undefined {
  if (!model) return { status: 404, message: `model "${String(body.model)}" not found, try pulling it first` };
  if (hasTools(body) && !supportsTools(model))
    return { status: 400, message: `registry.ollama.ai/library/${model.ollamaName} does not support tools` };
  return ollamaContextRefusal(body, model, truncate);
}

/** The reply text of a template-only model (special tokens removed), thinking split off for thinking models. */
function decodeText(model: ScriptedModel, tokens: ReturnType<typeof generate>) {
  const pieces = llamaCppPieces(tokens, { special: false });
  return thinks(model) ? splitThinking(pieces) : { content: pieces };
}

/**
 * openai/openai.go, `NewError`: OpenAI's envelope around Ollama's message, its type from the status. Its
 * ChatCompletionRequest has no `truncate`, so a chat longer than the context is truncated as by default.
 */
function openAiRefusal(body: Record<string, unknown>, model: ScriptedModel | undefined) {
  const refused = refusal(body, model, true);
  const type = refused?.status === 400 ? 'invalid_request_error' : refused?.status === 404 ? 'not_found_error' : 'api_error';
  return refused && { status: refused.status, body: { error: { message: refused.message, type, param: null, code: null } } };
}

// `tool_choice` is not read: openai/openai.go's ChatCompletionRequest has no such field, so `none` and a
// forced tool change nothing and every offered tool is rendered and parsed.
function openAiRules(options: FakeOllamaServerOptions): ChatRules {
  return {
    refuse: openAiRefusal,
    rendersTools: hasTools,
    parsesCalls: (body, model) => hasTools(body) && supportsTools(model),
    decode: (generation, _body, model) => decodeText(model, generation),
    constraint: (body) => ollamaFormatConstraint(formatOfOpenAiRequest(body, options)),
    reasoningField: 'reasoning',
    splitsThinking: true,
  };
}

/** openai/openai.go, `fromChatRequest`: `json_object` becomes format "json", `json_schema` its schema (since 0.5.0). */
function formatOfOpenAiRequest(body: Record<string, unknown>, options: FakeOllamaServerOptions): unknown {
  const format = body.response_format as { type?: unknown; json_schema?: { schema?: unknown } } | undefined;
  if (format?.type === 'json_object') return 'json';
  if (format?.type === 'json_schema' && options.beforeFormatSchemas !== true) return format.json_schema?.schema;
  return undefined;
}

/** The native `format` a version before 0.5.0 cannot bind: Go's json error, answered 400 by ChatHandler. */
function formatBindingRefusal(body: Record<string, unknown>, options: FakeOllamaServerOptions): string | undefined {
  if (options.beforeFormatSchemas !== true || body.format === undefined || typeof body.format === 'string') return undefined;
  const kind = Array.isArray(body.format)
    ? 'array'
    : typeof body.format === 'object' && body.format !== null
      ? 'object'
      : typeof body.format;
  return `json: cannot unmarshal ${kind} into Go struct field ChatRequest.format of type string`;
}

/**
 * Ollama's name rule: a name without a tag means its `latest` tag, so `llama3.1` is `llama3.1:latest`
 * (types/model/name.go, `ParseName` fills in the default tag).
 */
function findModel(models: readonly ScriptedModel[], name: unknown): ScriptedModel | undefined {
  const full = typeof name === 'string' && !name.includes(':') ? `${name}:latest` : name;
  return models.find((candidate) => candidate.ollamaName === full);
}

async function serveNativeChat(request: RecordedRequest, response: http.ServerResponse, options: FakeOllamaServerOptions): Promise<void> {
  const body = bodyOf(request);
  const unbound = formatBindingRefusal(body, options);
  if (unbound) return sendJson(response, 400, { error: unbound });
  const model = findModel(options.models, body.model);
  const refused = refusal(body, model, body.truncate !== false);
  if (refused || !model) return sendJson(response, refused?.status ?? 404, { error: refused?.message });
  // `format` is a grammar over the whole reply: the model writes the JSON, no call and no thinking.
  const constraint = ollamaFormatConstraint(body.format);
  if (constraint) return writeOllamaChatReply({ type: 'chat', content: constrainedPieces(constraint).join('') }, request, response);
  const generation = generate(model, sawTool(body, hasTools(body)));
  if (generation.called && hasTools(body)) {
    const beside = besideCall(model, generation, thinks(model));
    return writeOllamaChatReply(
      {
        type: 'chat',
        content: beside.content.join(''),
        ...(beside.reasoning ? { thinking: beside.reasoning.join('') } : {}),
        toolCalls: callsOf(model).map((call, index) => ({ name: call.name, arguments: call.arguments, id: `call_ollama_${index}` })),
      },
      request,
      response,
    );
  }
  const decoded = decodeText(model, generation);
  return writeOllamaChatReply(
    { type: 'chat', content: decoded.content.join(''), ...(decoded.reasoning ? { thinking: decoded.reasoning.join('') } : {}) },
    request,
    response,
  );
}

function show(request: RecordedRequest, response: http.ServerResponse, models: readonly ScriptedModel[]): void {
  const body = bodyOf(request);
  const name = body.model ?? body.name;
  const model = findModel(models, name);
  if (!model) return sendJson(response, 404, { error: `model '${String(name)}' not found` });
  sendJson(response, 200, {
    license: '',
    modelfile: `FROM ${model.ollamaName}\n`,
    parameters: '',
    template: model.chatTemplate(),
    // GetModelInfo (server/routes.go): `details.family` is the config's model family (the GGUF architecture),
    // and `model_info` the GGUF's own keys, `general.name` removed.
    details: { ...describeOllamaModel(model.ollamaName).details, family: model.architecture, families: [model.architecture] },
    model_info: { 'general.architecture': model.architecture, ...(model.basename ? { 'general.basename': model.basename } : {}) },
    capabilities: model.ollamaCapabilities,
    modified_at: '2026-11-01T12:00:00Z',
  });
}

export async function startFakeOllamaServer(options: FakeOllamaServerOptions): Promise<FakeInferenceServer> {
  const { models } = options;
  const chatRules = openAiRules(options);
  return startFakeInferenceServer(
    {
      'GET /': (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        response.end('Ollama is running');
      },
      'GET /api/version': (_request, response) => sendJson(response, 200, { version: '0.13.1' }),
      'GET /api/tags': (_request, response) =>
        sendJson(response, 200, { models: models.map((model) => describeOllamaModel(model.ollamaName)) }),
      'POST /api/show': (request, response) => show(request, response, models),
      'POST /api/chat': (request, response) => serveNativeChat(request, response, options),
      'GET /v1/models': (_request, response) =>
        sendJson(response, 200, {
          object: 'list',
          data: models.map((model) => ({ id: model.ollamaName, object: 'model', created: 1_700_000_000, owned_by: 'library' })),
        }),
      'POST /v1/chat/completions': async (request, response) => {
        const body = bodyOf(request);
        const model = findModel(models, body.model);
        if (model) return serveChat(request, response, model, chatRules);
        const refused = openAiRefusal(body, undefined);
        return sendJson(response, refused?.status ?? 404, refused?.body);
      },
    },
    (_request, response) => {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('404 page not found');
    },
  );
}
