/**
 * Reads each inference server's own description of itself into a profile, one reader per kind, from
 * the wire shapes in the servers' sources:
 * - llama-server `GET /props`: `chat_template`, `chat_template_caps` (`supports_tool_calls`, `supports_tools`),
 *   `build_info`, and `model_path` (the GGUF file, whatever `--alias` it is served under) (the props handler
 *   in llama.cpp's tools/server/server-context.cpp; caps from common/chat.cpp).
 * - vLLM `GET /version`: `{"version": VLLM_VERSION}` (vllm/entrypoints/openai/api_server.py, `show_version`).
 * - vLLM `GET /v1/models`: each `ModelCard`'s `root` is the model's path or repository id whatever
 *   `--served-model-name` it is served under, and a LoRA adapter's `parent` is its base model's served
 *   name (vllm/entrypoints/openai/serving_models.py, `show_available_models`).
 * - SGLang `GET /get_server_info`: its ServerArgs (`tool_call_parser`, `model_path`, …) plus `version`
 *   (python/sglang/srt/entrypoints/http_server.py, `get_server_info`).
 * - LM Studio `GET /api/v0/models`: `data[]` with `id`, `type`, `arch`, `state`, `compatibility_type` and
 *   `capabilities: ["tool_use"]`; 0.4's `GET /api/v1/models`: `models[]` with `key`, `display_name`,
 *   `architecture` and `capabilities.trained_for_tool_use` (lmstudio-ai/docs, 1_developer/2_rest/endpoints.md
 *   and list.md).
 * - `/v1/models` `owned_by`: "vllm" (vllm protocol.py ModelCard), "sglang" (sglang protocol.py ModelCard),
 *   "llamacpp" (server-context.cpp); Ollama's is the model's namespace (openai/openai.go), which tells nothing.
 */
import type { ServerKind } from '../../src/core/server-kind.js';
import type { ModelIdentity, ToolParsing, UpstreamProfile } from '../../src/core/server-profile.js';
import { asRecord, readString, type JsonRecord } from '../../src/http/read-loose-json.js';

/** A reader's verdict: the kind's profile (minus how it was found), or undefined when the body is not that server's. */
export type ServerReading = Omit<UpstreamProfile, 'found'> & { server: ServerKind };

function withVersion(reading: ServerReading, version: string | undefined): ServerReading {
  if (version !== undefined) reading.version = version;
  return reading;
}

/** The names that are there and not empty, each once, in order. */
function identityOf(names: readonly (string | undefined)[]): ModelIdentity {
  return [...new Set(names.filter((name): name is string => name !== undefined && name !== ''))];
}

/** A one-model server's identity from the path it was started with. */
function withServedModel(reading: ServerReading, path: string | undefined): ServerReading {
  const identity = identityOf([path]);
  if (identity.length > 0) reading.servedModel = identity;
  return reading;
}

/**
 * llama-server parses calls when its template supports them, and only with `--jinja` (else it answers
 * tools with "tools param requires --jinja flag"), which /props does not show: so a template with
 * tool support is tried natively until refused.
 */
export function readLlamaServerProps(body: unknown): ServerReading | undefined {
  const props = asRecord(body);
  if (!props || (typeof props.chat_template !== 'string' && typeof props.build_info !== 'string')) return undefined;
  const caps = asRecord(props.chat_template_caps);
  const callsFlag = caps?.supports_tool_calls ?? caps?.supports_tools;
  const toolParsing: ToolParsing = callsFlag === false ? 'no-model' : 'until-refused';
  // It serves its one model whatever name a request gives (or its `--alias`), so the file says what every name is.
  const reading = withServedModel({ server: 'llama.cpp', toolParsing }, readString(props, 'model_path'));
  return withVersion(reading, readString(props, 'build_info'));
}

/** vLLM answers exactly `{"version": …}`; a body with more in it is some other server's /version. */
export function readVllmVersion(body: unknown): ServerReading | undefined {
  const record = asRecord(body);
  const version = readString(record, 'version');
  if (!record || version === undefined || Object.keys(record).length !== 1) return undefined;
  // Whether it was started with --enable-auto-tool-choice and a --tool-call-parser is not exposed: native until refused.
  return { server: 'vllm', toolParsing: 'until-refused', version };
}

/**
 * SGLang's server info carries its launch arguments, so whether it has a tool-call parser is known. Without
 * one it takes tools and parses nothing (`if request.tool_choice != "none" and request.tools and
 * self.tool_call_parser` in serving_chat.py): the calls would arrive as text, so its models are prompted.
 */
export function readSglangServerInfo(body: unknown): ServerReading | undefined {
  const info = asRecord(body);
  if (!info || typeof info.version !== 'string' || !('model_path' in info || 'tool_call_parser' in info)) return undefined;
  const parser = info.tool_call_parser;
  const toolParsing: ToolParsing =
    typeof parser === 'string' && parser !== '' ? 'every-model' : parser === null ? 'no-model' : 'until-refused';
  const reading = withServedModel({ server: 'sglang', toolParsing }, readString(info, 'model_path'));
  return withVersion(reading, readString(info, 'version'));
}

/**
 * vLLM's listing, read for what each served name is: its `root`, then (a LoRA adapter, whose root is the
 * adapter's own folder) its base model's root.
 */
export function readListedRoots(body: unknown): ReadonlyMap<string, ModelIdentity> {
  const data = asRecord(body)?.data;
  const cards = (Array.isArray(data) ? data : []).map(asRecord).filter((card): card is JsonRecord => card !== undefined);
  const rootOf = new Map(cards.map((card) => [readString(card, 'id'), readString(card, 'root')]));
  const identities = new Map<string, ModelIdentity>();
  for (const card of cards) {
    const id = readString(card, 'id');
    const parent = readString(card, 'parent');
    const identity = identityOf([readString(card, 'root'), parent === undefined ? undefined : (rootOf.get(parent) ?? parent)]);
    // `vllm serve Qwen/Qwen3-8B` lists the path as its own name: nothing more to say.
    const beyondName = identity.filter((name) => name !== id);
    if (id !== undefined && beyondName.length > 0) identities.set(id, beyondName);
  }
  return identities;
}

type LmStudioModel = { name: string; usesTools: boolean; identity: ModelIdentity };

function lmStudioV0Model(entry: JsonRecord): LmStudioModel | undefined {
  const id = readString(entry, 'id');
  const kind = readString(entry, 'type');
  if (id === undefined || kind === 'embeddings') return undefined;
  const capabilities = entry.capabilities;
  return {
    name: id,
    usesTools: Array.isArray(capabilities) && capabilities.includes('tool_use'),
    identity: identityOf([readString(entry, 'arch')]),
  };
}

function lmStudioV1Model(entry: JsonRecord): LmStudioModel | undefined {
  const key = readString(entry, 'key');
  if (key === undefined || readString(entry, 'type') === 'embedding') return undefined;
  const identity = identityOf([readString(entry, 'display_name'), readString(entry, 'architecture')]);
  return { name: key, usesTools: asRecord(entry.capabilities)?.trained_for_tool_use === true, identity };
}

/** LM Studio's own listing (v0's `data` or v1's `models`), told from an OpenAI list by its LM Studio-only fields. */
export function readLmStudioModels(body: unknown): ServerReading | undefined {
  const record = asRecord(body);
  const v0 = Array.isArray(record?.data) ? (record.data as unknown[]).map(asRecord) : undefined;
  const v1 = Array.isArray(record?.models) ? (record.models as unknown[]).map(asRecord) : undefined;
  const entries = (v0 ?? v1 ?? []).filter((entry): entry is JsonRecord => entry !== undefined);
  const lmStudioShaped = v0
    ? entries.some((entry) => 'compatibility_type' in entry || 'state' in entry)
    : entries.some((entry) => 'key' in entry && 'loaded_instances' in entry);
  if (!lmStudioShaped) return undefined;
  const read = v0 ? lmStudioV0Model : lmStudioV1Model;
  const listed = entries.map(read).filter((model): model is LmStudioModel => model !== undefined);
  const models = new Map(listed.map((model) => [model.name, model.usesTools]));
  const identities = new Map(listed.filter((model) => model.identity.length > 0).map((model) => [model.name, model.identity]));
  return { server: 'lmstudio', toolParsing: 'per-model', models, identities };
}

/** Ollama's `{"version": …}` at /api/version (api/client.go `Version`). */
export function readOllamaVersion(body: unknown): string | undefined {
  return readString(asRecord(body), 'version');
}

const ownersByName: ReadonlyMap<string, ServerKind> = new Map([
  ['vllm', 'vllm'],
  ['sglang', 'sglang'],
  ['llamacpp', 'llama.cpp'],
]);

/** The kind a `/v1/models` listing names in its entries' `owned_by`, when it names one. */
export function readModelsOwner(body: unknown): ServerKind | undefined {
  const data = asRecord(body)?.data;
  if (!Array.isArray(data)) return undefined;
  for (const entry of data) {
    const kind = ownersByName.get(readString(asRecord(entry), 'owned_by') ?? '');
    if (kind) return kind;
  }
  return undefined;
}

/** What a kind is assumed to do when it was named (configured or by owned_by) but its own endpoints did not answer. */
export function defaultReading(server: ServerKind): ServerReading {
  switch (server) {
    case 'vllm':
    case 'sglang':
    case 'llama.cpp':
      return { server, toolParsing: 'until-refused' };
    case 'lmstudio':
    case 'ollama':
      return { server, toolParsing: 'per-model' };
    case 'generic':
      return { server, toolParsing: 'unknown' };
  }
}
