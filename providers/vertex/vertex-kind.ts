/** The `vertex` provider kind: Gemini and Claude models through a Google Cloud project's Vertex AI. */
import { providerKindConfigProperties } from '../../src/core/provider-types.js';
import { alwaysNative, type ProviderKind } from '../provider-kind.js';
import { createVertexAdapter } from './create-vertex-adapter.js';

const vertexConfigProperties = providerKindConfigProperties.vertex;

export const vertexKind: ProviderKind<'vertex', typeof vertexConfigProperties> = {
  type: 'vertex',
  hasUpstream: true,
  configProperties: vertexConfigProperties,
  // Gemini and Claude call tools natively.
  autoToolCalling: alwaysNative,
  detectsReasoningOpening: false,
  // OpenTelemetry's GenAI name for Vertex AI.
  genAiProviderName: 'gcp.vertex_ai',
  createAdapter: (config, dependencies) => createVertexAdapter(config, undefined, dependencies.refusals),
};
