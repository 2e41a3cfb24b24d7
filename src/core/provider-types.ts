/**
 * The provider kinds as the config file sees them: their names, which of them talk to an upstream URL,
 * and the settings only one kind reads. No adapter is imported here, so config (and whatever reads a
 * config's types) does not load every provider; providers/index.ts checks its kinds against this list.
 */
import type { ToolCallingMode } from './resolved-model.js';
import { serverKinds } from './server-kind.js';

/** The config's `type` enum; discovery and the no-config providers follow the registry's order (providers/index.ts). */
export const providerTypeNames = [
  'openai',
  'openai-compatible',
  'anthropic',
  'ollama',
  'gemini',
  'azure-openai',
  'vertex',
  'bedrock',
  'scripted',
] as const;

export type ProviderType = (typeof providerTypeNames)[number];

/** Kinds with no upstream (`scripted`): `baseUrl` is then not required. */
export const providerTypesWithoutUpstream: readonly ProviderType[] = ['scripted'];

/**
 * Kinds whose native JSON response format the gateway does not use: the scripted model has none. The
 * format is written into the prompt and the gateway checks the reply.
 */
export const providerTypesWithoutResponseFormat: readonly ProviderType[] = ['scripted'];

/** Vertex AI routes Claude models (names starting `claude`) to Anthropic's publisher, every other model to Google's. */
export function isVertexClaudeModel(model: string): boolean {
  return /^claude/i.test(model);
}

/**
 * Whether a model's upstream has a native form of `json_object`. Anthropic's structured outputs take a
 * schema only (`output_config.format` is `json_schema`), and so does Bedrock's Converse
 * (`outputConfig.textFormat.type` is `json_schema` alone), so Claude, direct or on Vertex AI, and every
 * Bedrock model are told in their prompt; sent nothing, they answer in prose and the gateway's check can
 * only report invalid JSON.
 */
export function takesJsonObjectNatively(type: ProviderType, model: string): boolean {
  if (providerTypesWithoutResponseFormat.includes(type) || type === 'anthropic' || type === 'bedrock') return false;
  return type !== 'vertex' || !isVertexClaudeModel(model);
}

/**
 * Whether a model's upstream compiles a response format's schema into a grammar that takes only a subset of
 * JSON Schema (src/core/grammar-schema-subset.ts): Claude, direct or on Vertex AI, and Bedrock's Converse.
 */
export function compilesSchemasToGrammar(type: ProviderType, model: string): boolean {
  return type === 'anthropic' || type === 'bedrock' || (type === 'vertex' && isVertexClaudeModel(model));
}

/**
 * The first-party APIs' own URLs: a provider of these kinds may leave `baseUrl` out (a proxy, a private
 * endpoint or a test sets it). Discovery from `OPENAI_API_KEY` and the like uses the same.
 */
export const firstPartyBaseUrls = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
  gemini: 'https://generativelanguage.googleapis.com',
} as const satisfies Partial<Record<ProviderType, string>>;

/**
 * Kinds whose upstream URL follows from their kind (the first-party APIs) or from their other settings
 * (Vertex AI's from its location, Bedrock's from its region): `baseUrl` only overrides.
 */
export const providerTypesWithDefaultBaseUrl: readonly ProviderType[] = ['vertex', 'bedrock', 'openai', 'anthropic', 'gemini'];

/**
 * Settings only one kind reads, as JSON Schema properties of a provider entry (`as const`, so that the
 * config file's type, derived from its schema, has them too). Each kind's `configProperties` is its entry.
 */
export const providerKindConfigProperties = {
  /** `server` names what answers at baseUrl (vLLM, llama-server, …) and overrides detecting it. */
  'openai-compatible': { server: { enum: serverKinds } },
  /** The turns to replay (YAML or JSON), relative to the config file. */
  scripted: { script: { type: 'string', minLength: 1 } },
  /**
   * Azure OpenAI: `apiVersion` `v1` (the default: /openai/v1/…, model in the body) or a dated version
   * (/openai/deployments/{deployment}/…?api-version=…); without `apiKey`, Microsoft Entra ID tokens, from
   * `entra`'s service principal or else the environment's credential chain.
   */
  /**
   * Google Vertex AI: the Google Cloud `project` and `location` (`us-central1`, `global`, …); credentials
   * from Application Default Credentials, a service-account `keyFile`, or a fixed `accessToken`.
   */
  vertex: {
    project: { type: 'string', minLength: 1 },
    location: { type: 'string', pattern: '^[a-z0-9-]+$' },
    keyFile: { type: 'string', minLength: 1 },
    accessToken: { type: 'string', minLength: 1 },
  },
  /**
   * Amazon Bedrock: the AWS `region`; credentials from the AWS SDK's default chain (environment, shared
   * config and `profile`, container and instance roles), or given here.
   */
  bedrock: {
    region: { type: 'string', pattern: '^[a-z0-9-]+$' },
    profile: { type: 'string', minLength: 1 },
    accessKeyId: { type: 'string', minLength: 1 },
    secretAccessKey: { type: 'string', minLength: 1 },
    sessionToken: { type: 'string', minLength: 1 },
  },
  'azure-openai': {
    apiVersion: { type: 'string', pattern: '^(v1|\\d{4}-\\d{2}-\\d{2}(-preview)?)$' },
    entra: {
      type: 'object',
      additionalProperties: false,
      properties: {
        tenantId: { type: 'string', minLength: 1 },
        clientId: { type: 'string', minLength: 1 },
        clientSecret: { type: 'string', minLength: 1 },
      },
    },
  },
} as const;

/** What model resolution asks of a kind (providers/provider-kind.ts's descriptors answer it; app.ts hands them in). */
export type ProviderKindFacts = {
  /**
   * What `toolCalling: auto` picks for a model: `byFamily` is the model-families table's answer from
   * the name. First-party APIs answer `native` whatever the name.
   */
  autoToolCalling(model: string, byFamily: ToolCallingMode): ToolCallingMode;
  /** The upstream hands the raw text on, so a template that opens `<think>` must be detected from the name. */
  detectsReasoningOpening: boolean;
};

/** A kind's facts by its config `type`. */
export type ProviderKindLookup = (type: string) => ProviderKindFacts;

/** Whether a server answers at a base URL (injectable, so discovery is testable without one). */
export type ServerProbe = (baseUrl: string) => Promise<boolean>;

/** A provider found in the environment: its name in the config, its settings, and a line for the startup log. */
export type DiscoveredProvider = { name: string; settings: Record<string, unknown>; note: string };

/** What discovery asks of a kind, when no config file is given. */
export type DiscoveringKind = {
  /** The environment variable(s) that discovery reads, for the first-run hint. */
  discoveryHint?: string;
  /** Finds a provider of this kind in the environment. */
  discover?(environment: NodeJS.ProcessEnv, probe: ServerProbe): DiscoveredProvider | undefined | Promise<DiscoveredProvider | undefined>;
};

/** The kinds in discovery order, and the probe that asks a local server (Ollama) whether it answers. */
export type ProviderDiscovery = { kinds: readonly DiscoveringKind[]; probe: ServerProbe };
