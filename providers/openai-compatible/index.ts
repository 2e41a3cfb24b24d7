/** The `openai-compatible` provider kind: vLLM, llama.cpp, LM Studio, OpenRouter and other /v1 servers. */
import { createOpenAiAdapter } from '../openai/create-openai-adapter.js';
import { providerKindConfigProperties } from '../../src/core/provider-types.js';
import { byModelFamily, type ProviderKind } from '../provider-kind.js';
import { createOpenAiCompatibleServerProber } from './openai-compatible-server-prober.js';

const openAiCompatibleConfigProperties = providerKindConfigProperties['openai-compatible'];

export const openAiCompatibleKind: ProviderKind<'openai-compatible', typeof openAiCompatibleConfigProperties> = {
  type: 'openai-compatible',
  hasUpstream: true,
  configProperties: openAiCompatibleConfigProperties,
  autoToolCalling: byModelFamily,
  // These servers may hand a template's opening `<think>` on as text.
  detectsReasoningOpening: true,
  // A vLLM, llama.cpp or LM Studio server: its own name is unknown, and it speaks OpenAI's API.
  genAiProviderName: 'openai_compatible',
  createAdapter: (config, dependencies) =>
    createOpenAiAdapter(config, 'openai-compatible', dependencies.caches, undefined, dependencies.refusals),
  createServerProber: createOpenAiCompatibleServerProber,
};
