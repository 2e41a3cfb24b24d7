/**
 * Small fakes of the endpoints inference servers describe themselves on, for server detection: each
 * answers what its server's source documents (cited in providers/openai-compatible/read-server-answers.ts
 * and providers/ollama/ollama-model-capabilities.ts) and 404 elsewhere; chat completions go to the test's
 * own handler. Full fake servers (special tokens, templates) are other helpers' work.
 */
import type http from 'node:http';
import { startLoopbackServer, type LoopbackServer, type RecordedRequest } from './loopback-server.js';

export type ProbeFakeKind = 'vllm' | 'sglang' | 'llama.cpp' | 'lmstudio' | 'lmstudio-v1' | 'ollama' | 'generic' | 'vllm-behind-proxy';

export type ProbeFakeOptions = {
  /** The models listed (default one Qwen3 model). */
  models?: string[];
  /** Models whose capabilities include tools (LM Studio `tool_use`, Ollama `tools`); default none. */
  toolModels?: string[];
  /** llama-server: `chat_template_caps.supports_tool_calls` (default true). */
  templateCallsTools?: boolean;
  /** vLLM: a listed model's `root` (`--served-model-name` differs from the path it was started with); default its own id. */
  roots?: Record<string, string>;
  /** Ollama: a model's GGUF `general.architecture` and `general.basename`, in `/api/show`; default none given. */
  ggufNames?: Record<string, { architecture: string; basename?: string }>;
  /** SGLang: its `tool_call_parser` launch argument (default null: none). */
  toolCallParser?: string | null;
  /** `POST /v1/chat/completions`; without it: 404. */
  chat?: (request: RecordedRequest, response: http.ServerResponse) => void;
};

function writeJson(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function openAiListing(models: string[], ownedBy: string) {
  return { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: ownedBy })) };
}

/** vLLM's ModelCard: `root` is the path the model was loaded from (vllm/entrypoints/openai/serving_models.py). */
function vllmListing(models: string[], roots: Record<string, string>) {
  const data = models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'vllm', root: roots[id] ?? id, parent: null }));
  return { object: 'list', data };
}

/** `/api/show`'s `details.family` and `model_info` GGUF keys (GetModelInfo in ollama's server/routes.go). */
function ollamaShowNames(names: { architecture: string; basename?: string } | undefined) {
  if (!names) return {};
  const modelInfo = { 'general.architecture': names.architecture, ...(names.basename ? { 'general.basename': names.basename } : {}) };
  return { details: { format: 'gguf', family: names.architecture, families: [names.architecture] }, model_info: modelInfo };
}

/** What each kind answers at its own endpoints (path → body), besides /v1/models. */
function ownEndpoints(
  kind: ProbeFakeKind,
  options: Required<Omit<ProbeFakeOptions, 'chat' | 'roots' | 'ggufNames'>>,
): Record<string, unknown> {
  const hasTools = (model: string) => options.toolModels.includes(model);
  switch (kind) {
    case 'vllm':
      return { 'GET /version': { version: '0.11.2' } };
    case 'sglang':
      return {
        'GET /get_server_info': { model_path: options.models[0], tool_call_parser: options.toolCallParser, tp_size: 1, version: '0.5.4' },
      };
    case 'llama.cpp':
      return {
        'GET /props': {
          model_alias: options.models[0],
          model_path: `/models/${options.models[0]?.split('/').at(-1) ?? ''}-Q4_K_M.gguf`,
          chat_template: '{% for message in messages %}{{ message.content }}{% endfor %}',
          chat_template_caps: { supports_tools: options.templateCallsTools, supports_tool_calls: options.templateCallsTools },
          build_info: 'b7100-1a2b3c4',
          total_slots: 1,
        },
      };
    case 'lmstudio':
      return {
        'GET /api/v0/models': {
          object: 'list',
          data: options.models.map((id) => ({
            id,
            object: 'model',
            type: 'llm',
            arch: 'qwen3',
            compatibility_type: 'gguf',
            state: 'loaded',
            ...(hasTools(id) ? { capabilities: ['tool_use'] } : {}),
          })),
        },
      };
    case 'lmstudio-v1':
      return {
        'GET /api/v1/models': {
          models: options.models.map((key) => ({
            type: 'llm',
            key,
            loaded_instances: [],
            capabilities: { vision: false, trained_for_tool_use: hasTools(key) },
          })),
        },
      };
    case 'ollama':
      return {
        'GET /api/version': { version: '0.13.1' },
        'GET /api/tags': { models: options.models.map((name) => ({ name, model: name, modified_at: '2026-11-01T00:00:00Z' })) },
      };
    case 'generic':
    case 'vllm-behind-proxy':
      return {};
  }
}

const owners: Record<ProbeFakeKind, string> = {
  vllm: 'vllm',
  'vllm-behind-proxy': 'vllm',
  sglang: 'sglang',
  'llama.cpp': 'llamacpp',
  lmstudio: 'organization_owner',
  'lmstudio-v1': 'organization_owner',
  ollama: 'library',
  generic: 'fake-org',
};

export async function startProbeFake(kind: ProbeFakeKind, options: ProbeFakeOptions = {}): Promise<LoopbackServer> {
  const settings = {
    models: options.models ?? ['Qwen/Qwen3-8B'],
    toolModels: options.toolModels ?? [],
    templateCallsTools: options.templateCallsTools ?? true,
    toolCallParser: options.toolCallParser ?? null,
  };
  const endpoints = ownEndpoints(kind, settings);
  return startLoopbackServer((request, response) => {
    const path = request.path.split('?')[0];
    const key = `${request.method} ${path}`;
    if (key in endpoints) return writeJson(response, 200, endpoints[key]);
    if (key === 'GET /v1/models' && kind === 'vllm') return writeJson(response, 200, vllmListing(settings.models, options.roots ?? {}));
    if (key === 'GET /v1/models') return writeJson(response, 200, openAiListing(settings.models, owners[kind]));
    if (kind === 'ollama' && key === 'POST /api/show') {
      const model = (request.body as { model?: string }).model ?? '';
      if (!settings.models.includes(model)) return writeJson(response, 404, { error: `model '${model}' not found` });
      const capabilities = settings.toolModels.includes(model) ? ['completion', 'tools'] : ['completion'];
      return writeJson(response, 200, {
        modelfile: '',
        template: '{{ .Prompt }}',
        capabilities,
        ...ollamaShowNames(options.ggufNames?.[model]),
      });
    }
    if (key === 'POST /v1/chat/completions' && options.chat) return options.chat(request, response);
    writeJson(response, 404, { error: { message: `fake: no route ${key}` } });
  });
}

/** The assistant's reply, whole or as SSE chunks as the request asked (OpenAI's chat completion shapes). */
export function writeChatReply(
  request: RecordedRequest,
  response: http.ServerResponse,
  reply: { content?: string; toolCall?: { name: string; arguments: string } },
): void {
  const body = request.body as { model?: string; stream?: boolean };
  const model = body.model ?? 'fake';
  const toolCalls = reply.toolCall ? [{ id: 'call_fake_0', type: 'function', function: reply.toolCall }] : undefined;
  const finishReason = toolCalls ? 'tool_calls' : 'stop';
  if (!body.stream) {
    const message = { role: 'assistant', content: reply.content ?? null, ...(toolCalls ? { tool_calls: toolCalls } : {}) };
    return writeCompletion(response, model, message, finishReason);
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (delta: unknown, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  let text = chunk({ role: 'assistant', content: '' }, null);
  // Split in two so that the gateway's parser sees a call cut mid-way.
  const content = reply.content ?? '';
  const middle = Math.floor(content.length / 2);
  for (const piece of [content.slice(0, middle), content.slice(middle)]) if (piece) text += chunk({ content: piece }, null);
  if (toolCalls) text += chunk({ tool_calls: toolCalls.map((call, index) => ({ index, ...call })) }, null);
  text += chunk({}, finishReason);
  response.end(`${text}data: [DONE]\n\n`);
}

function writeCompletion(response: http.ServerResponse, model: string, message: unknown, finishReason: string): void {
  writeJson(response, 200, {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, message, finish_reason: finishReason }],
    usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
  });
}

/** vLLM's answer to tools with `tool_choice: "auto"` when it was started without a tool parser (serving_chat.py). */
export function writeVllmAutoToolChoiceRefusal(response: http.ServerResponse): void {
  writeJson(response, 400, {
    error: {
      message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
      type: 'BadRequestError',
      param: null,
      code: 400,
    },
  });
}
