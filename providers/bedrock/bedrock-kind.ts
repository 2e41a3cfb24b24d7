/** The `bedrock` provider kind: every Bedrock model family through the Converse API, with its native tool use. */
import { providerKindConfigProperties } from '../../src/core/provider-types.js';
import { alwaysNative, type ProviderKind } from '../provider-kind.js';
import { createBedrockAdapter } from './create-bedrock-adapter.js';

const bedrockConfigProperties = providerKindConfigProperties.bedrock;

export const bedrockKind: ProviderKind<'bedrock', typeof bedrockConfigProperties> = {
  type: 'bedrock',
  hasUpstream: true,
  configProperties: bedrockConfigProperties,
  // Converse gives every model family Bedrock's own tool use; a model without it answers with a
  // ValidationException, which the pipeline takes as native tools refused.
  autoToolCalling: alwaysNative,
  detectsReasoningOpening: false,
  // OpenTelemetry's GenAI name for Bedrock.
  genAiProviderName: 'aws.bedrock',
  createAdapter: (config, dependencies) => createBedrockAdapter(config, dependencies.refusals),
};
