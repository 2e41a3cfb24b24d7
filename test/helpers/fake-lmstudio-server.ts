/**
 * A fake LM Studio server (`lms server start`, models loaded) on 127.0.0.1:0, following its documentation:
 * https://lmstudio.ai/docs/app/api/endpoints/rest (`/api/v0/models`, `capabilities: ["tool_use"]` for models
 * trained for tools) and https://lmstudio.ai/docs/app/api/tools (with `tools` it always returns parsed
 * `tool_calls`: natively for tool-trained models, through its default tool prompt for the others). Its
 * llama.cpp engine removes special tokens from plain text.
 */
import {
  bodyOf,
  sendJson,
  serveChat,
  splitThinking,
  startFakeInferenceServer,
  type ChatRules,
  type FakeInferenceServer,
} from './fake-inference-server.js';
import { llamaCppPieces, messagesText } from './scripted-generation.js';
import type { ScriptedModel } from './scripted-models.js';

export type FakeLmStudioOptions = { models: readonly ScriptedModel[] };

/** LM Studio names models by their catalogue key, lower case. */
export const lmStudioId = (model: ScriptedModel) => model.id.toLowerCase();

/** Tool-trained models: here the ones Ollama's library also marks `tools`. */
const toolTrained = (model: ScriptedModel) => model.ollamaCapabilities.includes('tools');

/** The context length models are loaded with (/api/v0/models' `loaded_context_length`). */
const loadedContextLength = 4096;

/**
 * A prompt longer than the loaded context: its llama.cpp engine refuses it with a 400 `{"error": "…"}` in
 * these words (as users quote them: lmstudio-ai/lmstudio-bug-tracker#237 and #546, dyad-sh/dyad#925),
 * tokens counted four characters to one here.
 */
function contextRefusal(body: Record<string, unknown>) {
  const tokens = Math.ceil(messagesText(body).length / 4);
  if (tokens <= loadedContextLength) return undefined;
  const message =
    `Trying to keep the first ${tokens} tokens when context the overflows. However, the model is loaded with context length of only ` +
    `${loadedContextLength} tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input`;
  return { status: 400, body: { error: message } };
}

const rules: ChatRules = {
  refuse: contextRefusal,
  rendersTools: (body) => Array.isArray(body.tools) && body.tools.length > 0,
  parsesCalls: (body) => Array.isArray(body.tools) && body.tools.length > 0 && body.tool_choice !== 'none',
  decode: (generation) => splitThinking(llamaCppPieces(generation, { special: false })),
  reasoningField: 'reasoning_content',
  splitsThinking: true,
};

export async function startFakeLmStudioServer(options: FakeLmStudioOptions): Promise<FakeInferenceServer> {
  const { models } = options;
  return startFakeInferenceServer(
    {
      'GET /api/v0/models': (_request, response) =>
        sendJson(response, 200, {
          object: 'list',
          data: models.map((model) => ({
            id: lmStudioId(model),
            object: 'model',
            type: 'llm',
            publisher: model.id.split('/')[0] ?? '',
            arch: model.architecture,
            compatibility_type: 'gguf',
            quantization: 'Q4_K_M',
            state: 'loaded',
            max_context_length: 32_768,
            loaded_context_length: loadedContextLength,
            ...(toolTrained(model) ? { capabilities: ['tool_use'] } : {}),
          })),
        }),
      'GET /v1/models': (_request, response) =>
        sendJson(response, 200, {
          data: models.map((model) => ({ id: lmStudioId(model), object: 'model', owned_by: 'organization_owner' })),
          object: 'list',
        }),
      'POST /v1/chat/completions': async (request, response) => {
        const body = bodyOf(request);
        const model = models.find((candidate) => lmStudioId(candidate) === body.model);
        if (model) return serveChat(request, response, model, rules);
        sendJson(response, 404, {
          error: {
            message: `Model "${String(body.model)}" not found.`,
            type: 'invalid_request_error',
            param: 'model',
            code: 'model_not_found',
          },
        });
      },
    },
    (request, response) => sendJson(response, 200, { error: `Unexpected endpoint or method. (${request.method} ${request.path})` }),
  );
}
