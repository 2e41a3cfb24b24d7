/** POST /v1/embeddings: passed to providers that have embeddings (openai, openai-compatible, ollama). */
import type { FastifyInstance } from 'fastify';
import type { FromSchema } from 'json-schema-to-ts';
import { gatewayError } from '../../src/core/gateway-error.js';
import type { EmbeddingRequest } from '../../src/core/provider-adapter.js';
import type { ChatPipeline } from '../../src/pipeline/chat-pipeline.js';
import type { ProviderDirectory } from '../../src/pipeline/provider-directory.js';
import type { BodyValidators } from '../shared/body-validator.js';
import { watchClientAbort } from '../shared/client-abort.js';

/** The body's one source: its type is derived from it. */
const embeddingRequestSchema = {
  type: 'object',
  required: ['model', 'input'],
  properties: {
    model: { type: 'string', minLength: 1 },
    input: {
      anyOf: [
        { type: 'string' },
        { type: 'array', minItems: 1, items: { type: 'string' } },
        { type: 'array', minItems: 1, items: { type: 'integer' } },
        { type: 'array', minItems: 1, items: { type: 'array', items: { type: 'integer' } } },
      ],
    },
    dimensions: { type: 'integer', minimum: 1 },
    encoding_format: { enum: ['float', 'base64'] },
    user: { type: 'string' },
  },
} as const;

export function registerEmbeddingsRoutes(
  app: FastifyInstance,
  options: { pipeline: ChatPipeline; providers: ProviderDirectory; validators: BodyValidators },
): void {
  const { pipeline, providers } = options;
  const validateBody = options.validators.for<FromSchema<typeof embeddingRequestSchema>>(embeddingRequestSchema);
  app.post('/v1/embeddings', async (request, reply) => {
    const body = validateBody(request.body);
    const model = pipeline.resolve(body.model);
    const adapter = providers.adapter(model.provider);
    if (!adapter.embed) {
      throw gatewayError('embeddings_unsupported', {
        message: `Provider '${model.provider}' (${model.providerType}) has no embeddings endpoint.`,
        param: 'model',
      });
    }
    const embeddingRequest: EmbeddingRequest = { model: model.model, input: body.input };
    if (body.dimensions !== undefined) embeddingRequest.dimensions = body.dimensions;
    if (body.encoding_format !== undefined) embeddingRequest.encodingFormat = body.encoding_format;
    if (body.user !== undefined) embeddingRequest.user = body.user;
    const abort = watchClientAbort(reply);
    const result = await adapter
      .embed(embeddingRequest, { cancellation: abort.cancellation, requestId: request.id, log: request.log })
      .finally(() => abort.dispose());
    const response: Record<string, unknown> = {
      object: 'list',
      data: result.data.map((item) => ({ object: 'embedding', index: item.index, embedding: item.embedding })),
      model: body.model,
    };
    if (result.usage) response.usage = { prompt_tokens: result.usage.promptTokens, total_tokens: result.usage.totalTokens };
    return response;
  });
}
