/**
 * A fake vLLM OpenAI-compatible server (`vllm serve MODEL`) on 127.0.0.1:0 with its documented defaults,
 * following https://github.com/vllm-project/vllm/blob/main/vllm/entrypoints/openai/chat_completion/serving.py
 * (`render_chat_request`, the full and streaming generators) and .../chat_completion/protocol.py.
 */
import {
  sendJson,
  serveChat,
  startFakeInferenceServer,
  unparsableCallArguments,
  type ChatRules,
  type FakeInferenceServer,
} from './fake-inference-server.js';
import { vllmConstraint } from './constrained-decoding.js';
import { harmonyReasoningAndContent } from './harmony-output.js';
import { messagesText, vllmDeltas } from './scripted-generation.js';
import type { ScriptedModel } from './scripted-models.js';

export type FakeVllmOptions = {
  /** The one model the server was started with (`vllm serve ID`). */
  model: ScriptedModel;
  /** `--served-model-name NAME`: the name requests and the listing use instead of the model's id. */
  servedModelName?: string;
  /** Started with `--enable-auto-tool-choice --tool-call-parser <the family's parser>`. */
  toolCallParser?: boolean;
  /** Started with `--exclude-tools-when-tool-choice-none`. */
  excludeToolsWhenToolChoiceNone?: boolean;
  /** Where it listens: a server started again on a closed one's port is that server restarted. */
  port?: number;
};

/** `--max-model-len`: the model's context, as /v1/models reports it (`max_model_len`). */
const maxModelLength = 32_768;

/**
 * A prompt and `max_tokens` that do not fit the context: the ValueError of the serving layer's input
 * validation (`_validate_input`), answered as a 400 BadRequestError. Tokens are counted four characters
 * to one here; `max_tokens` defaults to what is left.
 */
function contextRefusal(body: Record<string, unknown>) {
  const prompt = Math.ceil(messagesText(body).length / 4);
  const completion = typeof body.max_tokens === 'number' ? body.max_tokens : 0;
  if (prompt + completion <= maxModelLength) return undefined;
  const message =
    `This model's maximum context length is ${maxModelLength} tokens. However, you requested ${prompt + completion} tokens ` +
    `(${prompt} in the messages, ${completion} in the completion). Please reduce the length of the messages or completion.`;
  return vllmError(400, 'BadRequestError', message);
}

/** vLLM's error envelope (`ErrorResponse` of vllm/entrypoints/openai/engine/protocol.py). */
function vllmError(status: number, type: string, message: string, param: string | null = null) {
  return { status, body: { error: { message, type, param, code: status } } };
}

/** `tool_choice` defaults to "auto" when tools are sent and "none" otherwise (protocol.py, `check_tool_usage`). */
export function toolChoiceOf(body: Record<string, unknown>): unknown {
  if (body.tool_choice !== undefined && body.tool_choice !== null) return body.tool_choice;
  return Array.isArray(body.tools) && body.tools.length > 0 ? 'auto' : 'none';
}

function hasTools(body: Record<string, unknown>): boolean {
  return Array.isArray(body.tools) && body.tools.length > 0;
}

/** The name requests must give: `--served-model-name`, else the path the model was loaded from (serving_models.py). */
const servedName = (options: FakeVllmOptions) => options.servedModelName ?? options.model.id;

/** The rules of vLLM's chat endpoint for one server start. */
function vllmChatRules(options: FakeVllmOptions): ChatRules {
  const parsesCalls = (body: Record<string, unknown>) => options.toolCallParser === true && hasTools(body) && toolChoiceOf(body) !== 'none';
  return {
    refuse(body, model) {
      if (body.model !== servedName(options))
        return vllmError(404, 'NotFoundError', `The model \`${String(body.model)}\` does not exist.`, 'model');
      // json.loads's own error, which serving.py's preprocessing handler returns as a 400 (`f"{e} {e.__cause__}"`).
      if (unparsableCallArguments(body) !== undefined)
        return vllmError(400, 'BadRequestError', 'Expecting value: line 1 column 1 (char 0) None');
      // protocol.py `check_generation_prompt`; add_generation_prompt defaults to true, and transformers'
      // apply_chat_template refuses continue_final_message beside it as well.
      if (body.continue_final_message === true && body.add_generation_prompt !== false)
        return vllmError(400, 'BadRequestError', 'Cannot set both `continue_final_message` and `add_generation_prompt` to True.');
      const tooLong = contextRefusal(body);
      if (tooLong) return tooLong;
      // Mistral tokenizers and gpt-oss (Harmony) are exempt: serving.py, `tool_parsing_unavailable`.
      const unavailable = !options.toolCallParser && model.detokenizer !== 'mistral' && !model.harmony;
      const choice = toolChoiceOf(body);
      if (!unavailable || choice === 'none') return undefined;
      if (choice === 'auto')
        return vllmError(400, 'BadRequestError', '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set');
      const named = typeof choice === 'string' ? choice : JSON.stringify(choice);
      return vllmError(400, 'BadRequestError', `tool_choice="${named}" requires --tool-call-parser to be set`);
    },
    rendersTools: (body) => hasTools(body) && !(toolChoiceOf(body) === 'none' && options.excludeToolsWhenToolChoiceNone === true),
    parsesCalls,
    decode(generation, body, model) {
      if (model.harmony) {
        // gpt-oss is parsed from token ids whatever skip_special_tokens says (serving.py, `use_harmony`).
        const { reasoning, content } = harmonyReasoningAndContent(generation);
        return { reasoning: reasoning === '' ? [] : [reasoning], content: content === '' ? [] : [content] };
      }
      // A tool parser's adjust_request turns skip_special_tokens off, but only for requests it parses
      // (e.g. vllm/tool_parsers/internlm2_tool_parser.py); the request's own values win otherwise.
      const skipSpecialTokens = parsesCalls(body) ? false : body.skip_special_tokens !== false;
      const spacesBetweenSpecialTokens = body.spaces_between_special_tokens !== false;
      return { content: vllmDeltas(model, generation, { skipSpecialTokens, spacesBetweenSpecialTokens }) };
    },
    constraint: vllmConstraint,
    reasoningField: 'reasoning',
    splitsThinking: false,
  };
}

export async function startFakeVllmServer(options: FakeVllmOptions): Promise<FakeInferenceServer> {
  const rules = vllmChatRules(options);
  const { model } = options;
  return startFakeInferenceServer(
    {
      'GET /version': (_request, response) => sendJson(response, 200, { version: '0.11.2' }),
      'GET /health': (_request, response) => {
        response.writeHead(200);
        response.end();
      },
      // vllm/entrypoints/openai/models/protocol.py, `ModelCard`: owned_by defaults to "vllm"; `root` is the
      // path the model was loaded from whatever name it is served under (serving_models.py, show_available_models).
      'GET /v1/models': (_request, response) =>
        sendJson(response, 200, {
          object: 'list',
          data: [
            {
              id: servedName(options),
              object: 'model',
              created: 1_700_000_000,
              owned_by: 'vllm',
              root: model.id,
              parent: null,
              max_model_len: maxModelLength,
              permission: [],
            },
          ],
        }),
      'POST /v1/chat/completions': (request, response) => serveChat(request, response, model, rules),
    },
    // FastAPI's own 404 for unknown paths.
    (_request, response) => sendJson(response, 404, { detail: 'Not Found' }),
    options.port === undefined ? {} : { port: options.port },
  );
}
