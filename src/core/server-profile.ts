/**
 * What one upstream server was found to be (its kind, version, how it was found) and whether it parses
 * tool calls itself, as a provider's prober reports it; read by the server directory (server-directory.ts).
 */
import type { ServerKind } from './server-kind.js';

/** How the server kind was learned: the provider's `server` setting (or its type), asking the server, or neither yet. */
export type ServerDiscovery = 'configured' | 'detected' | 'unreachable' | 'pending';

/**
 * Whether the server parses tool calls itself (the native lane works):
 * - `every-model` / `no-model`: one answer for the whole server (llama-server's template caps, SGLang's parser);
 * - `per-model`: per model, from the server's model capabilities (LM Studio, Ollama);
 * - `until-refused`: unknowable in advance; native until the server refuses tools for a model (vLLM);
 * - `unknown`: no opinion (a generic server): the model-families table decides.
 */
export type ToolParsing = 'every-model' | 'no-model' | 'per-model' | 'until-refused' | 'unknown';

export type UpstreamProfile = {
  /** Absent when nothing answered. */
  server?: ServerKind;
  found: ServerDiscovery;
  /** The server's own version or build string, when it tells. */
  version?: string;
  toolParsing: ToolParsing;
  /** `per-model`: the models known so far, and whether the server parses each one's calls. */
  models?: ReadonlyMap<string, boolean>;
  /**
   * The server removes special tokens from prompted-lane replies and cannot be told not to: said once at
   * startup, naming the fix.
   */
  strippingWarning?: string;
  /** What the server says each model is, by the name it serves it under (vLLM's `root`, LM Studio's `arch`, Ollama's GGUF names). */
  identities?: ReadonlyMap<string, ModelIdentity>;
  /** A one-model server (llama-server, SGLang) answers every model name with that model: what it is. */
  servedModel?: ModelIdentity;
};

/**
 * What a server says a model is, beside the name it serves it under (`--served-model-name`, `--alias`, a
 * Modelfile's name): a repository id, a file path or an architecture, the most telling first. Read by
 * the families table when the served name names no family.
 */
export type ModelIdentity = readonly string[];

/** What a per-model server says of one model when asked about it alone. */
export type ModelReading = { parsesToolCalls?: boolean; identity?: ModelIdentity };

/** Finds out what answers at one provider's base URL; implemented by the provider kinds that can ask. */
export interface ServerProber {
  /** Bounded in time by the prober itself; never rejects (an unreachable server is a profile too). */
  detect(signal: AbortSignal): Promise<UpstreamProfile>;
  /** Servers that can be asked about one model (Ollama): whether it parses the model's calls, and what the model is; undefined when it cannot say. */
  readModel?(model: string, profile: UpstreamProfile, signal: AbortSignal): Promise<ModelReading | undefined>;
}
