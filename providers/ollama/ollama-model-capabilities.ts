/**
 * What an Ollama server is and which of its models it parses tool calls for: `GET /api/version`, the
 * models of `GET /api/tags`, and each model's `capabilities` from `POST /api/show` (`completion`, `tools`,
 * `thinking`, `vision`, …; `ShowHandler` in ollama's server/routes.go, `Capabilities()` in server/images.go).
 * The same answer says what a model is whatever it was named (`ollama create my-model` from a Modelfile):
 * `model_info` holds the GGUF's own keys, among them `general.basename` ("Qwen3") and `general.architecture`
 * ("qwen3"), and `details.family` the architecture again (`GetModelInfo` in server/routes.go).
 * A model with `tools` gets native tools (Ollama parses its calls); one without is template-only, and
 * Ollama strips its special tokens in the prompted lane (see stripsTemplateOnlyModels below).
 * Shared by the `ollama` provider and an `openai-compatible` one found to be Ollama's `/v1`.
 */
import type { ModelIdentity, ModelReading, UpstreamProfile } from '../../src/core/server-profile.js';
import { asRecord, readString, type JsonRecord } from '../../src/http/read-loose-json.js';
import { okBody, probeJson } from '../../src/http/probe-json.js';

export type OllamaProbeTarget = { root: string; headers: Record<string, string> };

const latestTag = ':latest';

/** Listed models read at start, at most: a large library is read lazily, model by model, as requests name them. */
const modelsReadAtStart = 32;

/** The basename names the model line ("Qwen3-Coder"), so it goes before the architecture ("qwen3moe"), which several lines share. */
function readIdentity(show: JsonRecord): ModelIdentity {
  const modelInfo = asRecord(show.model_info);
  const names = [
    readString(modelInfo, 'general.basename'),
    readString(asRecord(show.details), 'family'),
    readString(modelInfo, 'general.architecture'),
  ];
  return [...new Set(names.filter((name): name is string => name !== undefined && name !== ''))];
}

/**
 * `POST /api/show`: whether the model has the `tools` capability, and what it is; undefined when Ollama
 * does not know the model.
 */
export async function readOllamaModel(target: OllamaProbeTarget, model: string, signal: AbortSignal): Promise<ModelReading | undefined> {
  const body = asRecord(okBody(await probeJson(`${target.root}/api/show`, { headers: target.headers, signal, json: { model } })));
  if (!body) return undefined;
  const reading: ModelReading = {};
  const identity = readIdentity(body);
  if (identity.length > 0) reading.identity = identity;
  const capabilities = body.capabilities;
  // Versions before capabilities were reported (0.6.3 and older) leave it out: no answer, not "no".
  if (Array.isArray(capabilities)) reading.parsesToolCalls = capabilities.includes('tools');
  return reading;
}

async function listedModels(target: OllamaProbeTarget, signal: AbortSignal): Promise<string[]> {
  const models = asRecord(okBody(await probeJson(`${target.root}/api/tags`, { headers: target.headers, signal })))?.models;
  if (!Array.isArray(models)) return [];
  return models.flatMap((entry) => {
    const name = readString(asRecord(entry), 'name');
    return name === undefined ? [] : [name];
  });
}

/**
 * Since Ollama runs GGUF models on a llama-server started without `--special`, a template-only model's
 * reply reaches us without its special tokens unless the request carries tools (llm/llama_server.go,
 * and the chat path of server/routes.go); nothing in a request can ask for them.
 */
function strippingWarning(withoutTools: string[]): string {
  const named = withoutTools.slice(0, 5).join(', ') + (withoutTools.length > 5 ? ', …' : '');
  return (
    `Ollama removes special tokens from the replies of models without the 'tools' capability (${named}), and cannot be told ` +
    'to keep them: in the prompted lane, calls whose markers are special tokens (gpt-oss, Mistral, Kimi K2, Llama 3.1, …) can ' +
    "be lost. Fix: use a model with the 'tools' capability (native lane), or serve this model with llama-server --special or " +
    "vLLM and point the provider there (with its 'server' setting)."
  );
}

/** The profile of an Ollama server: its version, and its listed models' tool support and identity. */
export async function readOllamaProfile(
  target: OllamaProbeTarget,
  found: 'configured' | 'detected',
  signal: AbortSignal,
): Promise<UpstreamProfile> {
  const versionAnswer = await probeJson(`${target.root}/api/version`, { headers: target.headers, signal });
  if (!versionAnswer.reachable) return { server: 'ollama', found: 'unreachable', toolParsing: 'per-model' };
  const version = readString(asRecord(okBody(versionAnswer)), 'version');
  const names = (await listedModels(target, signal)).slice(0, modelsReadAtStart);
  const models = new Map<string, boolean>();
  const identities = new Map<string, ModelIdentity>();
  const withoutTools: string[] = [];
  for (const name of names) {
    const reading = await readOllamaModel(target, name, signal);
    // Clients mostly name a model without its tag, as `ollama run` does: Ollama reads `llama3.1` as
    // `llama3.1:latest` (types/model/name.go, ParseName), and so must the lookups, or the first request
    // goes to the family table's lane before the model is asked about on its own.
    const spellings = name.endsWith(latestTag) ? [name, name.slice(0, -latestTag.length)] : [name];
    for (const spelling of spellings) if (reading?.identity) identities.set(spelling, reading.identity);
    const hasTools = reading?.parsesToolCalls;
    if (hasTools === undefined) continue;
    for (const spelling of spellings) models.set(spelling, hasTools);
    if (!hasTools) withoutTools.push(name);
  }
  const profile: UpstreamProfile = { server: 'ollama', found, toolParsing: 'per-model', models, identities };
  if (version !== undefined) profile.version = version;
  if (withoutTools.length > 0) profile.strippingWarning = strippingWarning(withoutTools);
  return profile;
}
