/** The `gemini` provider kind: Google's Gemini API (generativelanguage.googleapis.com), not its OpenAI-compatible endpoint. */
import { firstPartyBaseUrls } from '../../src/core/provider-types.js';
import type { ToolCallingMode } from '../../src/core/index.js';
import { discoverFromApiKey, type ProviderKind } from '../provider-kind.js';
import { createGeminiAdapter } from './create-gemini-adapter.js';
import { isGemmaModel } from './is-gemma-model.js';

/** Gemini models have native function calling; Gemma models served by the same API do not. */
function geminiAutoToolCalling(model: string, byFamily: ToolCallingMode): ToolCallingMode {
  return isGemmaModel(model) ? byFamily : 'native';
}

export const geminiKind: ProviderKind<'gemini'> = {
  type: 'gemini',
  hasUpstream: true,
  autoToolCalling: geminiAutoToolCalling,
  detectsReasoningOpening: false,
  // The OpenTelemetry GenAI convention's value for the Gemini API (AI Studio), beside `gcp.vertex_ai`.
  genAiProviderName: 'gcp.gemini',
  discoveryHint: 'GEMINI_API_KEY',
  discover: discoverFromApiKey({
    name: 'gemini',
    type: 'gemini',
    keyVariable: 'GEMINI_API_KEY',
    baseUrlVariable: 'GEMINI_BASE_URL',
    defaultBaseUrl: firstPartyBaseUrls.gemini,
  }),
  createAdapter: (config) => createGeminiAdapter(config),
};
