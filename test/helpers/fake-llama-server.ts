/**
 * A fake llama.cpp `llama-server -m MODEL.gguf` (Jinja templates on, its default) on 127.0.0.1:0, following
 * https://github.com/ggml-org/llama.cpp/tree/master/tools/server: server-context.cpp (`/props`, `/v1/models`,
 * `accept_special_token`), server-common.cpp (`oaicompat_chat_params_parse`), server-task.cpp (the
 * `/completion` body and its `preserved_tokens`) and common/chat.cpp (tool calls parsed when tools are sent).
 * Not modelled: the few dedicated formats of common/chat.cpp that are chosen even without tools (gpt-oss,
 * Hermes-style and DeepSeek R1 templates) and may keep and parse their own markers then; here every
 * request without tools takes the content-only path, which preserves nothing.
 */
import type http from 'node:http';
import { renderChatTemplate, templateCapabilities } from './chat-template-rendering.js';
import { constrainedPieces, isAnyObject, llamaSchemaConversionError, llamaServerConstraint } from './constrained-decoding.js';
import {
  bodyOf,
  sendJson,
  serveChat,
  splitThinking,
  startFakeInferenceServer,
  unparsableCallArguments,
  type ChatRules,
  type FakeInferenceServer,
} from './fake-inference-server.js';
import { fakeTokenLogprob } from './fake-openai-upstream.js';
import type { RecordedRequest } from './loopback-server.js';
import { callsOf, generate, llamaCppPieces, messagesText, weatherCall } from './scripted-generation.js';
import type { ScriptedCall, ScriptedModel } from './scripted-models.js';

export type FakeLlamaServerOptions = {
  model: ScriptedModel;
  /** `--alias NAME`: the model name /props, /v1/models and replies give instead of the file's. */
  alias?: string;
  /** Started with `--special` (`-sp`): every special token's text is sent. */
  special?: boolean;
  /** A build from before `/apply-template` (llama.cpp added it in 2025): the route answers 404 like any unknown path. */
  withoutApplyTemplate?: boolean;
  /**
   * Started with `--no-jinja`, or a build from before Jinja templates were on by default (llama.cpp PR
   * 17524, November 2025): the GGUF's template is applied by the legacy built-in formatter, which takes no
   * tools. /props still shows the template and its capabilities.
   */
  noJinja?: boolean;
  /**
   * A build from before `response_format: {type: "json_schema"}` was read (ggml-org/llama.cpp#10732, fixed in
   * December 2024): such a format is refused, thrown as a std::runtime_error from the parser, which the
   * server's exception handler answers as ERROR_TYPE_SERVER (500). `json_object` and `json_schema` in the
   * body worked already.
   */
  withoutJsonSchemaFormat?: boolean;
  /** The calls the model makes, one after another, when it is offered the tools (default: the weather call alone). */
  calls?: readonly ScriptedCall[];
};

/** llama-server's error envelope (`format_error_response`, server-common.cpp). */
function llamaError(status: number, type: string, message: string) {
  return { error: { code: status, message, type } };
}

function hasTools(body: Record<string, unknown>): boolean {
  return Array.isArray(body.tools) && body.tools.length > 0;
}

/** llama-server's 500 for an earlier call whose arguments are not JSON (server-common.cpp, as users quote it). */
function argumentsRefusal(body: Record<string, unknown>) {
  const text = unparsableCallArguments(body);
  if (text === undefined) return undefined;
  const message = `Failed to parse tool call arguments as JSON: [json.exception.parse_error.101] parse error at line 1, column 1: syntax error while parsing value - invalid literal; last read: '${text.slice(0, 1)}'`;
  return { status: 500, body: llamaError(500, 'server_error', message) };
}

/**
 * Without Jinja, `oaicompat_chat_params_parse` (server-common.cpp), which serves both /v1/chat/completions
 * and /apply-template, throws a std::runtime_error for tools and for any `tool_choice` string but "auto"
 * (an object reads as "auto"); a runtime_error is answered as ERROR_TYPE_SERVER, HTTP 500.
 */
function jinjaRefusal(body: Record<string, unknown>, options: FakeLlamaServerOptions) {
  if (options.noJinja !== true) return undefined;
  const refusal = (message: string) => ({ status: 500, body: llamaError(500, 'server_error', message) });
  if (hasTools(body)) return refusal('tools param requires --jinja flag');
  if (typeof body.tool_choice === 'string' && body.tool_choice !== 'auto') return refusal('tool_choice param requires --jinja flag');
  return undefined;
}

/** The context size the fake runs with (`-c 8192`; /props' `n_ctx`). */
const contextSize = 8192;

/** The fake's token count: four characters a token, as its /completion counts `tokens_evaluated`. */
const promptTokens = (text: string) => Math.ceil(text.length / 4);

/**
 * A prompt longer than the context: server-context.cpp refuses the task before generating, with
 * ERROR_TYPE_EXCEED_CONTEXT_SIZE (HTTP 400) and the counts beside the message.
 */
function contextRefusal(tokens: number) {
  if (tokens <= contextSize) return undefined;
  const message = `request (${tokens} tokens) exceeds the available context size (${contextSize} tokens), try increasing it`;
  return {
    status: 400,
    body: { error: { ...llamaError(400, 'exceed_context_size_error', message).error, n_prompt_tokens: tokens, n_ctx: contextSize } },
  };
}

/**
 * A response format the build cannot read, or a schema json-schema-to-grammar cannot convert: the latter is
 * answered 400 invalid_request_error with the converter's errors (quoted in ggml-org/llama.cpp#19716). The
 * grammar is the format's when the request has a format with a schema, else the tool-call grammar, built from
 * the tools' parameters (chat-auto-parser-generator.cpp, `autoparser::build_parser`: `if (has_response_format)`
 * the format's schema alone, `else if (has_tools …)` the tools' parser), so a tool's schema the converter cannot
 * read is refused only in a request without such a format, and in the same words.
 */
function formatRefusal(body: Record<string, unknown>, options: FakeLlamaServerOptions) {
  const format = body.response_format as { type?: unknown } | undefined;
  if (options.withoutJsonSchemaFormat === true && format?.type === 'json_schema') {
    const message = 'response_format type must be one of "text" or "json_object", but got: json_schema';
    return { status: 500, body: llamaError(500, 'server_error', message) };
  }
  const constraint = llamaServerConstraint(body);
  const failed = constraint && !isAnyObject(constraint) ? llamaSchemaConversionError(constraint) : toolSchemaConversionError(body);
  return failed ? { status: 400, body: llamaError(400, 'invalid_request_error', `${parserGenerationFailed}${failed}`) } : undefined;
}

/**
 * How builds with the automatic parser generator word any failure of it (`common_chat_templates_apply_jinja`,
 * common/chat.cpp: `throw std::invalid_argument("Unable to generate parser for this template. Automatic parser
 * generation failed: " + e.what())`), answered 400 invalid_request_error.
 */
const parserGenerationFailed = 'Unable to generate parser for this template. Automatic parser generation failed: ';

/**
 * The tool-call grammar's refusal (the converter's words, wrapped by formatRefusal as the parser generator
 * wraps them); with `tool_choice: "none"` it builds no grammar (chat-auto-parser-generator.cpp,
 * `include_grammar`), which is why /apply-template is never refused this way.
 */
function toolSchemaConversionError(body: Record<string, unknown>): string | undefined {
  if (!hasTools(body) || body.tool_choice === 'none') return undefined;
  const reasons = (body.tools as { function?: { parameters?: unknown } }[])
    .map((tool) => tool.function?.parameters)
    .filter((schema): schema is Record<string, unknown> => typeof schema === 'object' && schema !== null)
    .flatMap((schema) => llamaSchemaConversionError({ schema })?.split('\n').slice(1) ?? []);
  if (reasons.length === 0) return undefined;
  return `JSON schema conversion failed:\n${reasons.join('\n')}`;
}

function llamaChatRules(options: FakeLlamaServerOptions): ChatRules {
  return {
    refuse: (body) =>
      jinjaRefusal(body, options) ??
      argumentsRefusal(body) ??
      formatRefusal(body, options) ??
      contextRefusal(promptTokens(messagesText(body))),
    rendersTools: hasTools,
    // With tools, common_chat_templates_apply picks the template's tool format (or the generic JSON one
    // for templates that render no tools) and common_chat_parse returns its calls as tool_calls.
    // tool_choice is read as a string (server-common.cpp, `json_value(body, "tool_choice", "auto")`): a
    // named-function object is read as "auto", which is what this rule does with it.
    parsesCalls: (body) => hasTools(body) && body.tool_choice !== 'none',
    // `parallel_tool_calls` defaults to false (server-common.cpp, `json_value(body, "parallel_tool_calls",
    // false)`), and then the tool-call grammar's root is a single call (common/chat.cpp: `parallel_tool_calls ?
    // "(" + tool_call + ")+" : tool_call`): generation ends after the model's first call.
    parsedCalls: (body) => {
      const calls = options.calls ?? callsOf(options.model);
      return body.parallel_tool_calls === true ? calls : calls.slice(0, 1);
    },
    // Without tools the template's "content only" format preserves no tokens: only --special keeps them.
    decode: (generation) => splitThinking(llamaCppPieces(generation, { special: options.special === true })),
    constraint: llamaServerConstraint,
    reasoningField: 'reasoning_content',
    splitsThinking: true,
  };
}

const modelPath = (model: ScriptedModel) => `/models/${model.id.split('/').at(-1) ?? model.id}-Q4_K_M.gguf`;

/** The server's model name (`ctx_server.model_name`): the alias, else the file's name. */
const modelName = (options: FakeLlamaServerOptions) => options.alias ?? modelPath(options.model).slice('/models/'.length);

function props(options: FakeLlamaServerOptions) {
  const { model } = options;
  const template = model.chatTemplate();
  return {
    default_generation_settings: {
      id: 0,
      n_ctx: contextSize,
      speculative: false,
      is_processing: false,
      params: { n_predict: -1, temperature: 0.8 },
    },
    total_slots: 1,
    model_alias: modelName(options),
    model_path: modelPath(model),
    modalities: { vision: false, audio: false },
    chat_template: template,
    chat_template_caps: templateCapabilities(template),
    bos_token: '',
    eos_token: model.endOfAnswer,
    build_info: 'b7100-3f5a2c1d',
    webui: true,
  };
}

/**
 * With `n_probs` above 0, the log probabilities of `pieces` (one piece, one token, numbered from `first`) as
 * `completion_probabilities` in probs_vector_to_json's shape (server-task.cpp): id, token, bytes, logprob and
 * n_probs `top_logprobs`, each with its id too. The values are the OpenAI fake's; tokens whose text is not
 * sent (special tokens not preserved) are left out.
 */
function completionProbabilities(nProbs: unknown, pieces: string[], first: number): Record<string, unknown> {
  if (typeof nProbs !== 'number' || nProbs <= 0) return {};
  return {
    completion_probabilities: pieces.map((piece, offset) => {
      const { top_logprobs: candidates, ...chosen } = fakeTokenLogprob(piece, first + offset, nProbs) as Record<string, unknown> & {
        top_logprobs: Record<string, unknown>[];
      };
      return { id: first + offset, ...chosen, top_logprobs: candidates.map((candidate, rank) => ({ id: 1000 + rank, ...candidate })) };
    }),
  };
}

/**
 * `POST /completion` (server-task.cpp, `params_from_json_cmpl`): `preserved_tokens` are read as strings and
 * only those that tokenize to exactly one token are kept; the reply's tokens go through the same
 * `accept_special_token` as the chat endpoint. Streamed, each token is one `data: {…}` event and the final
 * one carries `stop: true` and the settings, with no `[DONE]` (`to_json_non_oaicompat`).
 */
async function serveCompletion(request: RecordedRequest, response: http.ServerResponse, options: FakeLlamaServerOptions): Promise<void> {
  const body = bodyOf(request);
  if (typeof body.prompt !== 'string')
    return sendJson(response, 400, llamaError(400, 'invalid_request_error', '"prompt" must be provided'));
  const tooLong = contextRefusal(promptTokens(body.prompt));
  if (tooLong) return sendJson(response, tooLong.status, tooLong.body);
  const { model } = options;
  const requested = Array.isArray(body.preserved_tokens)
    ? body.preserved_tokens.filter((token): token is string => typeof token === 'string')
    : [];
  const preserved = new Set(requested.filter((token) => model.tokens.added.includes(token)));
  // `json_schema` is read by params_from_json_cmpl (server-task.cpp) and converted as on the chat endpoint.
  const constraint =
    typeof body.json_schema === 'object' && body.json_schema !== null
      ? llamaServerConstraint({ json_schema: body.json_schema })
      : undefined;
  const failed = constraint && llamaSchemaConversionError(constraint);
  if (failed) return sendJson(response, 400, llamaError(400, 'invalid_request_error', failed));
  const generation = generate(model, body.prompt.includes(weatherCall.name));
  const pieces = constraint ? constrainedPieces(constraint) : llamaCppPieces(generation, { special: options.special === true, preserved });
  const evaluated = promptTokens(body.prompt);
  const final = (content: string) => ({
    index: 0,
    content,
    tokens: [],
    id_slot: 0,
    stop: true,
    model: modelName(options),
    tokens_predicted: generation.tokens.length,
    tokens_evaluated: evaluated,
    generation_settings: { n_predict: -1, preserved_tokens: [...preserved] },
    prompt: body.prompt,
    has_new_line: content.includes('\n'),
    truncated: false,
    stop_type: 'eos',
    stopping_word: '',
    tokens_cached: evaluated,
    timings: { prompt_n: evaluated, predicted_n: generation.tokens.length },
  });
  if (body.stream !== true)
    return sendJson(response, 200, { ...final(pieces.join('')), ...completionProbabilities(body.n_probs, pieces, 0) });
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  pieces.forEach((content, position) => {
    const event = {
      index: 0,
      content,
      tokens: [],
      stop: false,
      id_slot: -1,
      tokens_predicted: position + 1,
      tokens_evaluated: evaluated,
      ...completionProbabilities(body.n_probs, [content], position),
    };
    response.write(`data: ${JSON.stringify(event)}\n\n`);
  });
  response.end(`data: ${JSON.stringify(final(''))}\n\n`);
}

export async function startFakeLlamaServer(options: FakeLlamaServerOptions): Promise<FakeInferenceServer> {
  const { model } = options;
  const rules = llamaChatRules(options);
  const name = modelName(options);
  return startFakeInferenceServer(
    {
      'GET /health': (_request, response) => sendJson(response, 200, { status: 'ok' }),
      'GET /props': (_request, response) => sendJson(response, 200, props(options)),
      'GET /v1/models': (_request, response) =>
        sendJson(response, 200, {
          models: [
            {
              name,
              model: name,
              modified_at: '',
              size: '',
              digest: '',
              type: 'model',
              description: '',
              tags: [''],
              capabilities: ['completion'],
              parameters: '',
              details: { format: 'gguf' },
            },
          ],
          object: 'list',
          data: [{ id: name, object: 'model', created: 1_700_000_000, owned_by: 'llamacpp', meta: { vocab_type: 2, n_ctx_train: 32_768 } }],
        }),
      // llama-server serves its one model whatever the request's `model` says.
      'POST /v1/chat/completions': (request, response) => serveChat(request, response, model, rules),
      'POST /apply-template': (request, response) => {
        if (options.withoutApplyTemplate) return sendJson(response, 404, llamaError(404, 'not_found_error', 'File Not Found'));
        const body = bodyOf(request);
        const refused = jinjaRefusal(body, options) ?? argumentsRefusal(body);
        if (refused) return sendJson(response, refused.status, refused.body);
        const prompt = renderChatTemplate(model.chatTemplate(), {
          messages: Array.isArray(body.messages) ? body.messages : [],
          ...(Array.isArray(body.tools) ? { tools: body.tools } : {}),
        });
        sendJson(response, 200, { prompt });
      },
      'POST /completion': (request, response) => serveCompletion(request, response, options),
      'POST /completions': (request, response) => serveCompletion(request, response, options),
    },
    (_request, response) => sendJson(response, 404, llamaError(404, 'not_found_error', 'File Not Found')),
  );
}
