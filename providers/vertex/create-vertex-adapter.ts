/**
 * The `vertex` provider adapter: Gemini models through Vertex AI's `generateContent` and
 * `streamGenerateContent` (https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/inference),
 * Anthropic's Claude models through `rawPredict` and `streamRawPredict` with the Messages body
 * (https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/use-claude and
 * https://docs.anthropic.com/en/api/claude-on-vertex-ai): the Gemini and Anthropic kinds' own
 * conversions and readers, on Vertex's paths, with Google Cloud bearer tokens.
 */
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { ProviderAdapter } from '../../src/core/provider-adapter.js';
import type { RefusalMemories } from '../../src/core/refusal-memory.js';
import { isVertexClaudeModel } from '../../src/core/provider-types.js';
import { vertexBetaPlatform } from '../anthropic/claude-platform-betas.js';
import { createAnthropicAdapter } from '../anthropic/create-anthropic-adapter.js';
import { createGeminiAdapter } from '../gemini/create-gemini-adapter.js';
import { mapGeminiStatusError } from '../gemini/map-gemini-error.js';
import { vertexAuthorization, vertexHeadersSource, type GoogleHeadersSource } from './vertex-credentials.js';

/** The Messages API version Vertex AI expects, in the body instead of a header. */
const vertexAnthropicVersion = 'vertex-2023-10-16';

/**
 * A model id as a path segment. Claude's ids carry their version after `@` (`claude-sonnet-4-5@20250929`),
 * which Vertex's own examples and Anthropic's Vertex SDK write as it is; anything else is escaped.
 */
function modelSegment(model: string): string {
  return encodeURIComponent(model).replaceAll('%40', '@');
}

/** `refusals`: where the Claude adapter remembers models Vertex refused strict tools or betas for (create-anthropic-adapter.ts). */
export function createVertexAdapter(
  config: ProviderConfig,
  credentials: GoogleHeadersSource = vertexHeadersSource(config),
  refusals?: RefusalMemories,
): ProviderAdapter {
  const vertex = config.vertex;
  if (!vertex) throw new Error(`provider ${config.name} has no vertex settings`);
  const authorization = vertexAuthorization(credentials, config.name);
  const publisher = (name: string) =>
    `/v1/projects/${encodeURIComponent(vertex.project)}/locations/${vertex.location}/publishers/${name}/models`;
  const gemini = createGeminiAdapter(config, {
    modelPath: (model) => `${publisher('google')}/${modelSegment(model)}`,
    authorization,
  });
  const anthropic = createAnthropicAdapter(
    config,
    {
      path: (model, stream) => `${publisher('anthropic')}/${modelSegment(model)}:${stream ? 'streamRawPredict' : 'rawPredict'}`,
      body: ({ model: _model, ...rest }) => ({ anthropic_version: vertexAnthropicVersion, ...rest }),
      authorization,
      // Vertex answers for Claude too when the call never reaches it (401, 403, 404, 429 quota): Google's envelope.
      errorFromStatus: mapGeminiStatusError,
      // Vertex takes only the betas it lists, in the header.
      betas: vertexBetaPlatform,
      // Vertex refuses a file given by URL ("URL sources are not supported", BerriAI/litellm#18430).
      urlSources: false,
    },
    refusals,
  );
  return {
    stream: (request, context) => (isVertexClaudeModel(request.model.model) ? anthropic : gemini).stream(request, context),
    close: async () => {
      await Promise.all([gemini.close?.(), anthropic.close?.()]);
    },
  };
}
