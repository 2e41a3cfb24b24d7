/**
 * Finds out what answers an `openai-compatible` provider: each server's own endpoints at the host root
 * first (they answer only on that server), the `/v1/models` listing's `owned_by` last; a server that
 * answers none of them is `generic`, one that answers nothing is unreachable. With `server` configured
 * the kind is not asked, only what that kind can tell (its version, its template's or models' tool
 * support). What its models are beside the names they are served under is read from the same answers,
 * and for vLLM from its `/v1/models` listing. Wire shapes and their sources: read-server-answers.ts.
 */
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { ServerKind } from '../../src/core/server-kind.js';
import type { ServerProber, UpstreamProfile } from '../../src/core/server-profile.js';
import { okBody, probeHeaders, probeJson, type ProbeAnswer } from '../../src/http/probe-json.js';
import { readOllamaModel, readOllamaProfile, type OllamaProbeTarget } from '../ollama/ollama-model-capabilities.js';
import {
  defaultReading,
  readListedRoots,
  readLlamaServerProps,
  readLmStudioModels,
  readModelsOwner,
  readOllamaVersion,
  readSglangServerInfo,
  readVllmVersion,
  type ServerReading,
} from './read-server-answers.js';

type Probe = (path: string) => Promise<ProbeAnswer>;

/** One kind's own endpoints: where it describes itself, and how that answer is read. */
type KindCheck = { server: ServerKind; paths: readonly string[]; read(body: unknown): ServerReading | undefined };

const kindChecks: readonly KindCheck[] = [
  { server: 'llama.cpp', paths: ['/props'], read: readLlamaServerProps },
  { server: 'vllm', paths: ['/version'], read: readVllmVersion },
  // Newer SGLang builds also answer /server_info; vLLM's router shim answers both without a version.
  { server: 'sglang', paths: ['/get_server_info', '/server_info'], read: readSglangServerInfo },
  { server: 'lmstudio', paths: ['/api/v0/models', '/api/v1/models'], read: readLmStudioModels },
];

/** The host root: the base URL without its OpenAI `/v1` (the servers' own endpoints live beside it). */
export function serverRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

async function checkKind(check: KindCheck, probe: Probe, seen: { reachable: boolean }): Promise<ServerReading | undefined> {
  for (const path of check.paths) {
    const answer = await probe(path);
    if (answer.reachable) seen.reachable = true;
    const reading = check.read(okBody(answer));
    if (reading) return reading;
  }
  return undefined;
}

export function createOpenAiCompatibleServerProber(config: ProviderConfig): ServerProber {
  const headers = probeHeaders(config);
  const root = serverRoot(config.baseUrl);
  const base = config.baseUrl.replace(/\/+$/, '');
  const ollama: OllamaProbeTarget = { root, headers };

  async function asKind(server: ServerKind, probe: Probe, signal: AbortSignal, seen: { reachable: boolean }): Promise<ServerReading> {
    if (server === 'ollama') return { ...(await readOllamaProfile(ollama, 'detected', signal)), server };
    const check = kindChecks.find((candidate) => candidate.server === server);
    return (check && (await checkKind(check, probe, seen))) ?? defaultReading(server);
  }

  async function detectKind(probe: Probe, signal: AbortSignal, seen: { reachable: boolean }): Promise<ServerReading | undefined> {
    for (const check of kindChecks) {
      const reading = await checkKind(check, probe, seen);
      if (reading) return reading;
    }
    const ollamaVersion = await probe('/api/version');
    if (ollamaVersion.reachable) seen.reachable = true;
    if (readOllamaVersion(okBody(ollamaVersion)) !== undefined) return asKind('ollama', probe, signal, seen);
    const listing = await probeJson(`${base}/models`, { headers, signal });
    if (listing.reachable) seen.reachable = true;
    const owner = readModelsOwner(okBody(listing));
    if (owner) return asKind(owner, probe, signal, seen);
    return seen.reachable ? defaultReading('generic') : undefined;
  }

  /** vLLM serves several names (`--served-model-name`, LoRA adapters): only its listing says what each one is. */
  async function withIdentities(reading: ServerReading, signal: AbortSignal): Promise<ServerReading> {
    if (reading.server !== 'vllm') return reading;
    const identities = readListedRoots(okBody(await probeJson(`${base}/models`, { headers, signal })));
    return identities.size > 0 ? { ...reading, identities } : reading;
  }

  return {
    async detect(signal: AbortSignal): Promise<UpstreamProfile> {
      const probe: Probe = (path) => probeJson(`${root}${path}`, { headers, signal });
      const seen = { reachable: false };
      if (config.server !== undefined) {
        const reading = await asKind(config.server, probe, signal, seen);
        return { ...(await withIdentities(reading, signal)), found: 'configured' };
      }
      const reading = await detectKind(probe, signal, seen);
      return reading ? { ...(await withIdentities(reading, signal)), found: 'detected' } : { found: 'unreachable', toolParsing: 'unknown' };
    },
    async readModel(model, profile, signal) {
      // Ollama's /v1 is the only per-model server here whose models can be asked one by one.
      return profile.server === 'ollama' ? readOllamaModel(ollama, model, signal) : undefined;
    },
  };
}
