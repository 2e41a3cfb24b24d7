/** What app.ts hands the chat pipeline: the config, the providers and formats, and the app's shared mechanisms. */
import type { GatewayConfig } from '../config/config-types.js';
import type { AgentSyntaxRegistry } from '../core/agent-text-syntax.js';
import type { ProviderAdapter } from '../core/provider-adapter.js';
import type { ProviderKindLookup } from '../core/provider-types.js';
import type { RandomHexPool } from '../core/random-hex-pool.js';
import type { RefusalMemories } from '../core/refusal-memory.js';
import type { RequestCaches } from '../core/request-caches.js';
import type { SecretRedactor } from '../core/secret-redactor.js';
import type { ServerDirectory } from '../core/server-directory.js';
import type { ToolFormat } from '../core/tool-format.js';
import type { DeploymentBalancer } from './deployment-balancer.js';
import type { PriceTable } from './price-table.js';
import type { RecentReplies } from './recent-replies.js';
import type { JsonRepair } from './repair-native-arguments.js';
import type { SchemaCheck } from './schema-validators.js';
import type { ResilienceObserver } from './stream-with-retries.js';

export type ChatPipelineDependencies = {
  config: GatewayConfig;
  /** What each provider kind says of its models (the provider registry's lookup, handed in by app.ts). */
  kinds: ProviderKindLookup;
  providers: ReadonlyMap<string, ProviderAdapter>;
  toolFormats: ReadonlyMap<string, ToolFormat>;
  /** Text syntaxes for agent_format; without it only openai, codex and passthrough exist. */
  agentSyntaxes?: AgentSyntaxRegistry;
  /** Redacts configured secrets from in-band errors; nothing is redacted without it. */
  redactor?: SecretRedactor;
  /** Repairs native tool calls' broken JSON arguments (the prompted lane's lenient reader); without it they pass as received. */
  repairJson?: JsonRepair;
  /** The last prompted-lane replies for the inspector, when `debug.recentReplies` is set. */
  recentReplies?: RecentReplies;
  /** Counts retries and fallbacks (the app's metrics). */
  resilience?: ResilienceObserver;
  /** The app's caches (src/core/request-caches.ts); fresh ones when absent. */
  caches?: RequestCaches;
  /** What answers each provider (detected servers pick `toolCalling: auto`'s lane); the families table alone when absent. */
  servers?: ServerDirectory;
  /** Validates replies against `response_format` schemas (ajv, compiled once per schema); unchecked when absent. */
  schemaCheck?: SchemaCheck;
  /** The app's pool of random hex, for the ids of calls parsed out of text; a UUID each when absent. */
  ids?: RandomHexPool;
  /** Orders each deployment's targets (the config's `deployments`); a fresh one when absent. */
  balancer?: DeploymentBalancer;
  /** Prices replies (the cost in the finish event's usage); no reply is priced without it. */
  prices?: PriceTable;
  /** Makes the memories of upstream refusals, with the app's lifetime and clock; ten minutes by Date.now when absent. */
  refusals?: RefusalMemories;
};
