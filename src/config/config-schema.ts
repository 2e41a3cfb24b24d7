/** JSON Schema (for ajv) of the configuration file, after ${ENV} interpolation. */

const toolCalling = { enum: ['auto', 'native', 'prompted'] };

const modelSettings = {
  type: 'object',
  additionalProperties: false,
  properties: {
    family: { type: 'string', minLength: 1 },
    toolCalling,
    startsInReasoning: { type: 'boolean' },
  },
};

const timeouts = {
  type: 'object',
  additionalProperties: false,
  properties: {
    connectMs: { type: 'integer', minimum: 1 },
    headersMs: { type: 'integer', minimum: 1 },
    bodyMs: { type: 'integer', minimum: 0 },
  },
};

const provider = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'baseUrl'],
  properties: {
    type: { enum: ['openai', 'openai-compatible', 'anthropic', 'ollama'] },
    baseUrl: { type: 'string', pattern: '^https?://[^\\s]+$' },
    apiKey: { type: 'string' },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    toolCalling,
    timeouts,
    models: { type: 'object', additionalProperties: modelSettings },
    defaultMaxTokens: { type: 'integer', minimum: 1 },
    maxConnections: { type: 'integer', minimum: 1 },
  },
};

const limits = {
  type: 'object',
  additionalProperties: false,
  properties: {
    requestsPerMinute: { type: 'integer', minimum: 1 },
    tokensPerMinute: { type: 'integer', minimum: 1 },
    concurrentStreams: { type: 'integer', minimum: 1 },
  },
};

/** `provider/model` globs (`*` any run of characters, `?` one). */
const globs = { type: 'array', items: { type: 'string', minLength: 1 } };

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
      },
    },
  ],
};

/** An HTTP header name (RFC 9110 token). */
const headerName = { type: 'string', pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$" };

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
};

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
        bodyLimitBytes: { type: 'integer', minimum: 1024 },
        logLevel: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] },
      },
    },
    providers: {
      type: 'object',
      // The name is the model prefix, so it can't contain '/'.
      propertyNames: { pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' },
      additionalProperties: provider,
    },
    agentFormats,
    /** Model names clients hard-code (`claude-sonnet-4-5`) → the `provider/model` that answers them. */
    aliases: { type: 'object', propertyNames: { minLength: 1 }, additionalProperties: { type: 'string', pattern: '^[^/]+/.+$' } },
  },
} as const;
