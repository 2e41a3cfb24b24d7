/** The validated configuration, as the rest of the gateway sees it (after defaults and ${ENV}). */
import type { ProviderType } from '../core/resolved-model.js';

export type ToolCallingSetting = 'auto' | 'native' | 'prompted';

export type TimeoutSettings = {
  /** TCP/TLS connect timeout. */
  connectMs: number;
  /** Time to the upstream's response headers (for non-streaming replies: the whole generation). */
  headersMs: number;
  /** Longest silence between two body chunks; 0 disables. */
  bodyMs: number;
};

export type ModelSettings = {
  family?: string;
  toolCalling?: ToolCallingSetting;
  /** The model's chat template opens `<think>` itself (DeepSeek-R1, QwQ, Qwen3 thinking): replies start in reasoning. */
  startsInReasoning?: boolean;
};

export type ProviderConfig = {
  /** The provider's name, which is also the model prefix (`local/…`). */
  name: string;
  type: ProviderType;
  /** openai kinds end in /v1; anthropic and ollama are the host root. */
  baseUrl: string;
  apiKey?: string;
  /** Extra headers sent on every upstream request. */
  headers: Record<string, string>;
  timeouts: TimeoutSettings;
  toolCalling: ToolCallingSetting;
  /** Per-model overrides, keyed by the upstream model id. */
  models: Record<string, ModelSettings>;
  /** `scripted` only: the absolute path of the script it replays; absent: the demo model. */
  script?: string;
  /** Anthropic requires max_tokens; used when the request gives none (with a warning). */
  defaultMaxTokens?: number;
  /**
   * Upper bound on concurrent connections to this upstream; unset means no bound. A bound queues the
   * requests beyond it (silently, until a connection frees up), so it is for upstreams that need one.
   */
  maxConnections?: number;
};

export type ServerConfig = {
  host: string;
  port: number;
  /** Client bearer keys; empty means no client auth. */
  apiKeys: string[];
  bodyLimitBytes: number;
  logLevel: string;
};

/** A request-header rule for agent_format detection: the header's value contains `contains` (any case). */
export type AgentFormatRule = {
  /** A request header name, lower case (`user-agent`). */
  header: string;
  contains: string;
  /** The agent_format it selects (checked against the registered formats at start). */
  format: string;
};

export type AgentFormatSettings = {
  /** Tried in order after the body field and the X-Agent-Format header; the first match wins. */
  rules: AgentFormatRule[];
  /** The format when nothing matched (`openai`). */
  default: string;
};

export type DebugSettings = {
  /** How many prompted-lane replies the inspector keeps (in memory only); 0 is off. */
  recentReplies: number;
};

export type GatewayConfig = {
  server: ServerConfig;
  providers: Record<string, ProviderConfig>;
  agentFormats: AgentFormatSettings;
  debug?: DebugSettings;
};
