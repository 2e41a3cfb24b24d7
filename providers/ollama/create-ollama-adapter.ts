/** The Ollama provider adapter: one pooled undici Agent and one `ollama` client per configured provider. */
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { ProviderAdapter } from '../../src/core/index.js';
import { createUpstreamAgent } from '../../src/http/upstream-agent.js';
import { embedWithOllama } from './embed-with-ollama.js';
import { listOllamaModels } from './list-ollama-models.js';
import { createOllamaClient } from './ollama-client.js';
import { readWholeOllamaChat } from './read-whole-ollama-chat.js';
import { streamOllamaChat } from './stream-ollama-chat.js';

export function createOllamaAdapter(config: ProviderConfig): ProviderAdapter {
  const agent = createUpstreamAgent(config);
  // Built once and shared: each call's signal and headers travel in AsyncLocalStorage, not in the client.
  const client = createOllamaClient(config, agent);
  const provider = config.name;
  return {
    // A client that reads the reply whole gets Ollama's own non-streaming reply: one parse, not one per token.
    stream: (request, context) => (context.wholeReply ? readWholeOllamaChat : streamOllamaChat)({ client, provider, request, context }),
    listModels: (context) => listOllamaModels({ client, provider, context }),
    embed: (request, context) => embedWithOllama({ client, provider, request, context }),
    close: () => agent.close(),
  };
}
