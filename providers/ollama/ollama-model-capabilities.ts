/**
 * What an Ollama server is and which of its models it parses tool calls for: `GET /api/version`, the
 * models of `GET /api/tags`, and each model's `capabilities` from `POST /api/show` (`completion`, `tools`,
 * `thinking`, `vision`, …; `ShowHandler` in ollama's server/routes.go, `Capabilities()` in server/images.go).
 * A model with `tools` gets native tools (Ollama parses its calls); one without is template-only, and
 * Ollama strips its special tokens in the prompted lane (see stripsTemplateOnlyModels below).
 * Shared by the `ollama` provider and an `openai-compatible` one found to be Ollama's `/v1`.
 */
import type { UpstreamProfile } from '../../src/core/server-profile.js';
import { asRecord, readString } from '../../src/http/read-loose-json.js';
import { okBody, probeJson } from '../../src/http/probe-json.js';

export type OllamaProbeTarget = { root: string; headers: Record<string, string> };

const latestTag = ':latest';

/** Listed models read at start, at most: a large library is read lazily, model by model, as requests name them. */
const modelsReadAtStart = 32;

/** `POST /api/show`: whether the model has the `tools` capability; undefined when Ollama does not say. */
export async function ollamaModelHasTools(target: OllamaProbeTarget, model: string, signal: AbortSignal): Promise<boolean | undefined> {
  const body = asRecord(okBody(await probeJson(`${target.root}/api/show`, { headers: target.headers, signal, json: { model } })));
  const capabilities = body?.capabilities;
  // Versions before capabilities were reported (0.6.3 and older) leave it out: no answer, not "no".
  if (!Array.isArray(capabilities)) return undefined;
  return capabilities.includes('tools');
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

/** The profile of an Ollama server: its version, and its listed models' tool support. */
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
  const withoutTools: string[] = [];
  for (const name of names) {
    const hasTools = await ollamaModelHasTools(target, name, signal);
    if (hasTools === undefined) continue;
    models.set(name, hasTools);
    if (!hasTools) withoutTools.push(name);
    // Clients mostly name a model without its tag, as `ollama run` does: Ollama reads `llama3.1` as
    // `llama3.1:latest` (types/model/name.go, ParseName), and so must the lane lookup, or the first request
    // goes to the family table's lane before the model is asked about on its own.
    if (name.endsWith(latestTag)) models.set(name.slice(0, -latestTag.length), hasTools);
  }
  const profile: UpstreamProfile = { server: 'ollama', found, toolParsing: 'per-model', models };
  if (version !== undefined) profile.version = version;
  if (withoutTools.length > 0) profile.strippingWarning = strippingWarning(withoutTools);
  return profile;
}
