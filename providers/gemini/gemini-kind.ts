/** The `gemini` provider kind: Google's Gemini API (generativelanguage.googleapis.com), not its OpenAI-compatible endpoint. */
import type { ToolCallingMode } from '../../src/core/index.js';
import type { ProviderKind } from '../provider-kind.js';
import { createGeminiAdapter } from './create-gemini-adapter.js';

/** Gemini models have native function calling; Gemma models served by the same API do not. */
function geminiAutoToolCalling(model: string, byFamily: ToolCallingMode): ToolCallingMode {
  return /(?:^|[/_\-.])gemma/i.test(model) ? byFamily : 'native';
}

export const geminiKind: ProviderKind<'gemini'> = {
  type: 'gemini',
  hasUpstream: true,
  autoToolCalling: geminiAutoToolCalling,
  detectsReasoningOpening: false,
  // The OpenTelemetry GenAI convention's value for the Gemini API (AI Studio), beside `gcp.vertex_ai`.
  genAiProviderName: 'gcp.gemini',
  discoveryHint: 'GEMINI_API_KEY',
  discover(environment) {
    if (!environment.GEMINI_API_KEY) return undefined;
    return {
      name: 'gemini',
      settings: { type: 'gemini', baseUrl: environment.GEMINI_BASE_URL || 'https://generativelanguage.googleapis.com', apiKey: environment.GEMINI_API_KEY },
      note: 'provider "gemini" from GEMINI_API_KEY',
    };
  },
  createAdapter: (config) => createGeminiAdapter(config),
};
