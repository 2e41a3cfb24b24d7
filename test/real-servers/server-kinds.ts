/**
 * The server kinds of the real-servers matrix, each started as its own documentation starts it, and the
 * gateway config a user writes for it: only `type` and `baseUrl` per provider.
 */
import type { FakeInferenceServer } from '../helpers/fake-inference-server.js';
import { startFakeLlamaServer } from '../helpers/fake-llama-server.js';
import { lmStudioId, startFakeLmStudioServer } from '../helpers/fake-lmstudio-server.js';
import { startFakeOllamaServer } from '../helpers/fake-ollama-server.js';
import { startFakeSglangServer } from '../helpers/fake-sglang-server.js';
import { startFakeVllmServer } from '../helpers/fake-vllm-server.js';
import type { ScriptedModel } from '../helpers/scripted-models.js';

export type StartedServers = {
  /** Provider name → config entry (`type` and `baseUrl`, nothing else). */
  providers: Record<string, { type: string; baseUrl: string }>;
  /** The `provider/model` a client asks for to reach a family's model. */
  modelOf(model: ScriptedModel): string;
  close(): Promise<void>;
};

export type ServerKindSetup = {
  /** The describe label: the server and how it was started. */
  label: string;
  start(models: readonly ScriptedModel[]): Promise<StartedServers>;
  /** Families whose calls this server loses before the gateway sees them, whatever it is sent: the reply must say so. */
  losesCallsOf?: readonly string[];
};

const providerOf = (model: ScriptedModel) => `m-${model.family}`;

/** One server process per model (vLLM, SGLang and llama-server each serve the model they were started with). */
function perModel(
  type: string,
  startOne: (model: ScriptedModel) => Promise<FakeInferenceServer>,
  servedName: (model: ScriptedModel) => string,
): ServerKindSetup['start'] {
  return async (models) => {
    const servers = await Promise.all(models.map(startOne));
    return {
      providers: Object.fromEntries(models.map((model, index) => [providerOf(model), { type, baseUrl: `${servers[index]?.url}/v1` }])),
      modelOf: (model) => `${providerOf(model)}/${servedName(model)}`,
      close: async () => {
        await Promise.all(servers.map((server) => server.close()));
      },
    };
  };
}

/** One server holding every model (Ollama and LM Studio load many). */
function shared(
  provider: { type: string; path: string },
  startAll: (models: readonly ScriptedModel[]) => Promise<FakeInferenceServer>,
  servedName: (model: ScriptedModel) => string,
): ServerKindSetup['start'] {
  return async (models) => {
    const server = await startAll(models);
    return {
      providers: { local: { type: provider.type, baseUrl: `${server.url}${provider.path}` } },
      modelOf: (model) => `local/${servedName(model)}`,
      close: server.close,
    };
  };
}

/** llama-server lists its model by the GGUF file's name, which is what clients send. */
const ggufName = (model: ScriptedModel) => `${model.id.split('/').at(-1) ?? model.id}-Q4_K_M.gguf`;

export const serverKinds: readonly ServerKindSetup[] = [
  {
    label: 'vLLM (vllm serve MODEL)',
    // Without a tool parser vLLM reads gpt-oss's reply from token ids and drops each call's recipient
    // (vllm/entrypoints/openai/parser/harmony_utils.py, parse_chat_output): see src/pipeline/vllm-harmony-notice.ts.
    losesCallsOf: ['harmony'],
    start: perModel(
      'openai-compatible',
      (model) => startFakeVllmServer({ model }),
      (model) => model.id,
    ),
  },
  {
    // https://docs.vllm.ai/en/latest/features/tool_calling.html
    label: 'vLLM (--enable-auto-tool-choice --tool-call-parser FAMILY)',
    start: perModel(
      'openai-compatible',
      (model) => startFakeVllmServer({ model, toolCallParser: true }),
      (model) => model.id,
    ),
  },
  {
    label: 'SGLang (python -m sglang.launch_server --model-path MODEL)',
    start: perModel(
      'openai-compatible',
      (model) => startFakeSglangServer({ model }),
      (model) => model.id,
    ),
  },
  {
    label: 'llama.cpp (llama-server -m MODEL.gguf)',
    start: perModel('openai-compatible', (model) => startFakeLlamaServer({ model }), ggufName),
  },
  {
    // A build from before /apply-template, or a proxy that passes /v1 only: the prompted lane falls back to
    // the chat endpoint with the gateway's own prompt (providers/openai/llama-template-lane.ts).
    label: 'llama.cpp without /apply-template (an older build)',
    start: perModel('openai-compatible', (model) => startFakeLlamaServer({ model, withoutApplyTemplate: true }), ggufName),
  },
  {
    // `--no-jinja`, or any build from before Jinja was on by default (November 2025): tools are refused
    // with a 500, on /apply-template too (tools/server/server-common.cpp, oaicompat_chat_params_parse).
    label: 'llama.cpp without Jinja (llama-server --no-jinja, or a build before November 2025)',
    start: perModel('openai-compatible', (model) => startFakeLlamaServer({ model, noJinja: true }), ggufName),
  },
  {
    label: 'Ollama (native API)',
    start: shared(
      { type: 'ollama', path: '' },
      (models) => startFakeOllamaServer({ models }),
      (model) => model.ollamaName,
    ),
  },
  {
    label: 'Ollama (its OpenAI-compatible /v1)',
    start: shared(
      { type: 'openai-compatible', path: '/v1' },
      (models) => startFakeOllamaServer({ models }),
      (model) => model.ollamaName,
    ),
  },
  {
    label: 'LM Studio (lms server start)',
    start: shared({ type: 'openai-compatible', path: '/v1' }, (models) => startFakeLmStudioServer({ models }), lmStudioId),
  },
];
