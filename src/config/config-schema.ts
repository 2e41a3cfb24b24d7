/**
 * JSON Schema (for ajv) of the configuration file, after ${ENV} interpolation. The file's TypeScript
 * type is derived from it (FromSchema), so the schema is the one source of the file's shape.
 */
import type { FromSchema } from 'json-schema-to-ts';
import {
  providerKindConfigProperties,
  providerTypeNames,
  providerTypesWithDefaultBaseUrl,
  providerTypesWithoutUpstream,
} from '../core/provider-types.js';

const toolCalling = { enum: ['auto', 'native', 'prompted'] } as const;

const modelSettings = {
  type: 'object',
  additionalProperties: false,
  properties: {
    family: { type: 'string', minLength: 1 },
    toolCalling,
    startsInReasoning: { type: 'boolean' },
  },
} as const;

const timeouts = {
  type: 'object',
  additionalProperties: false,
  properties: {
    connectMs: { type: 'integer', minimum: 1 },
    headersMs: { type: 'integer', minimum: 1 },
    bodyMs: { type: 'integer', minimum: 0 },
  },
} as const;

const upstreamLimits = {
  type: 'object',
  additionalProperties: false,
  properties: {
    // At most V8's longest string (2^29 - 24 UTF-16 units, ~512 MB): a UTF-8 body no longer than that always decodes.
    maxResponseBytes: { type: 'integer', minimum: 1024, maximum: 536_870_888 },
    maxEventBytes: { type: 'integer', minimum: 1024, maximum: 536_870_888 },
  },
} as const;

/** An object of exactly these settings, each optional. */
function settingsObject<const Properties extends Record<string, object>>(properties: Properties) {
  return { type: 'object', additionalProperties: false, properties } as const;
}

const retries = settingsObject({
  count: { type: 'integer', minimum: 0, maximum: 10 },
  initialDelayMs: { type: 'integer', minimum: 0, maximum: 60_000 },
  maxDelayMs: { type: 'integer', minimum: 0, maximum: 300_000 },
});

/** `A | B` → `A & B`: every kind's settings are properties of one provider entry. */
type Intersection<Union> = (Union extends unknown ? (part: Union) => void : never) extends (part: infer Whole) => void ? Whole : never;
type KindProperties = Intersection<(typeof providerKindConfigProperties)[keyof typeof providerKindConfigProperties]>;

/** Object.assign over a list is typed `any`: the kinds' own types say what it holds. */
const kindProperties = Object.assign({}, ...Object.values(providerKindConfigProperties)) as KindProperties;

const provider = {
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  // Every kind with an upstream talks to a URL (given, unless the kind derives it from its settings).
  if: {
    properties: {
      type: {
        enum: providerTypeNames.filter(
          (type) => !providerTypesWithoutUpstream.includes(type) && !providerTypesWithDefaultBaseUrl.includes(type),
        ),
      },
    },
  },
  then: { required: ['baseUrl'], properties: { baseUrl: true } },
  properties: {
    type: { enum: providerTypeNames },
    // Each kind's own settings (the scripted kind's `script`).
    ...kindProperties,
    baseUrl: { type: 'string', pattern: '^https?://[^\\s]+$' },
    apiKey: { type: 'string' },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    toolCalling,
    timeouts,
    limits: upstreamLimits,
    retries,
    models: { type: 'object', additionalProperties: modelSettings },
    defaultMaxTokens: { type: 'integer', minimum: 1 },
    maxConnections: { type: 'integer', minimum: 1 },
  },
} as const;

const limits = {
  type: 'object',
  additionalProperties: false,
  properties: {
    requestsPerMinute: { type: 'integer', minimum: 1 },
    tokensPerMinute: { type: 'integer', minimum: 1 },
    concurrentStreams: { type: 'integer', minimum: 1 },
  },
} as const;

/** `provider/model` globs (`*` any run of characters, `?` one). */
const globs = { type: 'array', items: { type: 'string', minLength: 1 } } as const;

/** A spend limit in USD per UTC day, week (from Monday) or month. */
const budget = {
  type: 'object',
  additionalProperties: false,
  required: ['usd', 'period'],
  properties: { usd: { type: 'number', minimum: 0 }, period: { enum: ['day', 'week', 'month'] } },
} as const;

/** USD per million tokens. */
const tokenPrice = { type: 'number', minimum: 0 } as const;

/** A client key: a string (full access), or an object with a policy. */
const apiKey = {
  anyOf: [
    { type: 'string', minLength: 1 },
    {
      type: 'object',
      additionalProperties: false,
      required: ['key'],
      properties: {
        key: { type: 'string', minLength: 1 },
        name: { type: 'string', minLength: 1, pattern: '^[A-Za-z0-9._-]+$' },
        models: globs,
        tools: {
          type: 'object',
          additionalProperties: false,
          properties: { allow: globs, deny: globs },
        },
        limits,
        /** May reload the config (`POST /admin/reload`) and read every key's usage. */
        admin: { type: 'boolean' },
        budget,
      },
    },
  ],
} as const;

/** An HTTP header name (RFC 9110 token). */
/** A `provider/model` address: what an alias and a deployment target name. */
export const providerModelPattern = '^[^/]+/.+$';

const headerName = { type: 'string', pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$" } as const;

const agentFormats = {
  type: 'object',
  additionalProperties: false,
  properties: {
    default: { type: 'string', minLength: 1 },
    rules: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['header', 'contains', 'format'],
        properties: { header: headerName, contains: { type: 'string', minLength: 1 }, format: { type: 'string', minLength: 1 } },
      },
    },
  },
} as const;

export const configFileSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    server: {
      type: 'object',
      additionalProperties: false,
      properties: {
        host: { type: 'string', minLength: 1 },
        port: { type: 'integer', minimum: 0, maximum: 65535 },
        apiKeys: { type: 'array', items: apiKey },
        limits,
        /** The budget of every key that sets none of its own. */
        budget,
        bodyLimitBytes: { type: 'integer', minimum: 1024 },
        // Opt-in: unset, no browser page may call the gateway (src/plugins/cors.ts says why).
        cors: {
          type: 'object',
          additionalProperties: false,
          required: ['origins'],
          properties: {
            origins: {
              type: 'array',
              minItems: 1,
              items: {
                type: 'string',
                // An origin as browsers send it (scheme, host, port; no path), or * for any.
                pattern: '^(\\*|https?://[^/\\s]+)$',
                description:
                  'An origin allowed to call the gateway from a browser (https://app.example.com, http://localhost:3000), or * for any.',
              },
            },
            maxAgeSeconds: { type: 'integer', minimum: 0 },
          },
        },
        maxJsonDepth: { type: 'integer', minimum: 8, maximum: 1024 },
        logLevel: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] },
        requestTimeoutMs: { type: 'integer', minimum: 0 },
        headersTimeoutMs: { type: 'integer', minimum: 1 },
        streamKeepAliveMs: { type: 'integer', minimum: 0 },
        shutdownGraceMs: { type: 'integer', minimum: 0 },
        webSocketMaxConnectionMs: { type: 'integer', minimum: 0 },
        // A server restarted with a feature on must get it back without a gateway restart.
        refusalMemoryMs: {
          type: 'integer',
          minimum: 0,
          description:
            'How long an upstream refusing a native feature for a model (tools, template rendering, the response format) is remembered before the native form is tried again. Default 600000 (10 minutes).',
        },
        // A non-streaming reply is read whole before the client sees a byte: bounded in time as well as in bytes.
        wholeReplyTimeoutMs: {
          type: 'integer',
          minimum: 0,
          description:
            'Longest time a non-streaming request waits for its whole reply (every retry and fallback included); then a 504 upstream_timeout. Default 600000 (10 minutes); 0 disables.',
        },
      },
    },
    providers: {
      type: 'object',
      // The name is the model prefix, so it can't contain '/'.
      propertyNames: { pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' },
      additionalProperties: provider,
    },
    agentFormats,
    debug: {
      type: 'object',
      additionalProperties: false,
      properties: {
        /** Keep the last N prompted-lane replies (raw text and result) for the inspector; 0 or absent: off. */
        recentReplies: { type: 'integer', minimum: 0, maximum: 1000 },
      },
    },
    /** Shared state for replicas (rate-limit counters, stored responses); absent: in-process. */
    state: {
      type: 'object',
      additionalProperties: false,
      properties: {
        redis: { type: 'string', pattern: '^rediss?://' },
        onRedisError: { enum: ['open', 'closed'] },
        keyPrefix: { type: 'string' },
        responseTtlSeconds: { type: 'integer', minimum: 1 },
        maxResponseBytes: { type: 'integer', minimum: 1024 },
        connectTimeoutMs: { type: 'integer', minimum: 100 },
        commandTimeoutMs: { type: 'integer', minimum: 10 },
        streamLeaseSeconds: { type: 'integer', minimum: 1, maximum: 3_600 },
      },
    },
    /** GET /metrics: a bearer token that may scrape it and nothing else (Prometheus's `authorization: { credentials }`). */
    metrics: {
      type: 'object',
      additionalProperties: false,
      properties: {
        token: { type: 'string', minLength: 16 },
      },
    },
    /** OpenTelemetry traces over OTLP/HTTP (GenAI conventions); off unless an endpoint is configured here or in OTEL_* variables. */
    telemetry: {
      type: 'object',
      additionalProperties: false,
      properties: {
        otlpEndpoint: { type: 'string', pattern: '^https?://[^\\s]+$' },
        serviceName: { type: 'string', minLength: 1 },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
      },
    },
    /** Model names clients hard-code (`claude-sonnet-4-5`) → the `provider/model` that answers them. */
    aliases: { type: 'object', propertyNames: { minLength: 1 }, additionalProperties: { type: 'string', pattern: providerModelPattern } },
    /** USD per million tokens by `provider/model` glob (first match wins); over the price data package's. */
    prices: {
      type: 'object',
      propertyNames: { minLength: 1 },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['input', 'output'],
        properties: { input: tokenPrice, output: tokenPrice, cacheRead: tokenPrice, cacheWrite: tokenPrice },
      },
    },
    /** One name, several targets that serve the same model: each request goes to one, chosen by the strategy. */
    deployments: {
      type: 'object',
      propertyNames: { minLength: 1 },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['targets'],
        properties: {
          strategy: { enum: ['weighted', 'least-busy', 'latency'] },
          targets: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['model'],
              properties: { model: { type: 'string', pattern: providerModelPattern }, weight: { type: 'number', exclusiveMinimum: 0 } },
            },
          },
          cooldownSeconds: { type: 'number', minimum: 0 },
          /** `session`: one conversation keeps to one healthy target, so the server's prompt cache is reused. */
          affinity: { enum: ['none', 'session'] },
        },
      },
    },
    /** A model (`provider/model` or an alias) → the targets tried in order when it fails before the first byte. */
    fallbacks: {
      type: 'object',
      propertyNames: { minLength: 1 },
      additionalProperties: { type: 'array', items: { type: 'string', minLength: 1 } },
    },
    fallbackOn: {
      type: 'array',
      items: { anyOf: [{ type: 'integer', minimum: 400, maximum: 599 }, { enum: ['5xx', 'timeout', 'connect'] }] },
    },
  },
} as const;

export type ConfigFile = FromSchema<typeof configFileSchema>;
export type ProviderEntry = NonNullable<ConfigFile['providers']>[string];
export type ClientKeyEntry = NonNullable<NonNullable<ConfigFile['server']>['apiKeys']>[number];
