/**
 * A fake SGLang server (`python -m sglang.launch_server --model-path MODEL`) on 127.0.0.1:0. It differs from
 * vLLM where it matters here: no 400 for tools without a parser (the tools are rendered and the reply comes
 * back as text), no Harmony special case without a parser, and its own identification endpoints. Follows
 * https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/entrypoints/openai/serving_chat.py
 * (`_process_messages` renders tools only when tool_choice is not "none"; `_build_chat_response` parses only
 * `if request.tool_choice != "none" and request.tools and self.tool_call_parser`) and
 * .../entrypoints/http_server.py (`/get_model_info`, `/get_server_info`). A `response_format` is decoded under
 * its grammar (constrained-decoding.ts, `sglangConstraint`).
 */
import { sglangConstraint } from './constrained-decoding.js';
import { sendJson, serveChat, startFakeInferenceServer, type ChatRules, type FakeInferenceServer } from './fake-inference-server.js';
import { toolChoiceOf } from './fake-vllm-server.js';
import { vllmDeltas } from './scripted-generation.js';
import type { ScriptedModel } from './scripted-models.js';

export type FakeSglangOptions = {
  model: ScriptedModel;
  /** Started with `--tool-call-parser <the family's parser>`. */
  toolCallParser?: boolean;
};

function offersTools(body: Record<string, unknown>): boolean {
  return Array.isArray(body.tools) && body.tools.length > 0 && toolChoiceOf(body) !== 'none';
}

function sglangChatRules(options: FakeSglangOptions): ChatRules {
  return {
    rendersTools: offersTools,
    parsesCalls: (body) => options.toolCallParser === true && offersTools(body),
    // SGLang's sampling parameters default skip_special_tokens and spaces_between_special_tokens to true
    // (python/sglang/srt/sampling/sampling_params.py); its detokenizer uses the Hugging Face tokenizer's decode.
    decode: (generation, body, model) => ({
      content: vllmDeltas(model, generation, {
        skipSpecialTokens: body.skip_special_tokens !== false,
        spacesBetweenSpecialTokens: body.spaces_between_special_tokens !== false,
      }),
    }),
    constraint: sglangConstraint,
    reasoningField: 'reasoning_content',
    splitsThinking: false,
  };
}

export async function startFakeSglangServer(options: FakeSglangOptions): Promise<FakeInferenceServer> {
  const rules = sglangChatRules(options);
  const { model } = options;
  return startFakeInferenceServer(
    {
      'GET /health': (_request, response) => {
        response.writeHead(200);
        response.end();
      },
      'GET /get_model_info': (_request, response) =>
        sendJson(response, 200, { model_path: model.id, tokenizer_path: model.id, is_generation: true }),
      'GET /get_server_info': (_request, response) =>
        sendJson(response, 200, { model_path: model.id, tool_call_parser: options.toolCallParser ? model.family : null, version: '0.5.5' }),
      'GET /v1/models': (_request, response) =>
        sendJson(response, 200, {
          object: 'list',
          data: [{ id: model.id, object: 'model', created: 1_700_000_000, owned_by: 'sglang', root: model.id, max_model_len: 32_768 }],
        }),
      'POST /v1/chat/completions': (request, response) => serveChat(request, response, model, rules),
    },
    (_request, response) => sendJson(response, 404, { detail: 'Not Found' }),
  );
}
