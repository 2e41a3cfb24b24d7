/**
 * The servers behind the providers, as found at start and after failures: synchronous lookups for the
 * request path (model resolution reads it on every request, so each answer is a Map lookup), and the
 * two things requests teach it. Built in app.ts (src/pipeline/upstream-profiles.ts).
 */
import type { ToolCallingMode } from './resolved-model.js';
import type { ModelIdentity, ServerDiscovery } from './server-profile.js';
import type { ServerKind } from './server-kind.js';

/** What /ready, /v1/models and the startup log say of one provider's server. */
export type ServerReport = { server?: ServerKind; version?: string; found: ServerDiscovery };

export interface ServerDirectory {
  /** The provider's server kind, configured or detected; undefined while unknown. */
  server(provider: string): ServerKind | undefined;
  /** What `toolCalling: auto` picks for this model on this server; undefined: no opinion (the families table decides). */
  autoToolCalling(provider: string, model: string): ToolCallingMode | undefined;
  /** What the server says this model is (see ModelIdentity); undefined while unknown or when it does not say. */
  modelIdentity(provider: string, model: string): ModelIdentity | undefined;
  /** The server refused native tools for this model: prompted until the refusal is forgotten (`server.refusalMemoryMs`). */
  rememberNativeRefused(provider: string, model: string): void;
  /** An upstream request failed: after a connection failure, timeout or 5xx the server may have changed, so it is asked again (rate-limited). */
  noticeFailure(provider: string, error: unknown): void;
  report(provider: string): ServerReport | undefined;
}
