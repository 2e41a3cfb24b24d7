/** The Ollama provider adapter: its native `/api` endpoints through one UpstreamClient per configured provider. */
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { ProviderAdapter } from '../../src/core/index.js';
import { warnWhenNoLogprobs } from '../logprobs-not-returned.js';
import { embedWithOllama } from './embed-with-ollama.js';
import { listOllamaModels } from './list-ollama-models.js';
import { createOllamaConnection } from './ollama-connection.js';
import { readWholeOllamaChat } from './read-whole-ollama-chat.js';
import { streamOllamaChat } from './stream-ollama-chat.js';

export function createOllamaAdapter(config: ProviderConfig): ProviderAdapter {
  const connection = createOllamaConnection(config);
  return {
    // A client that reads the reply whole gets Ollama's own non-streaming reply: one parse, not one per token.
    // An Ollama before 0.12.11 ignores `logprobs`: said in a warning (logprobs-not-returned.ts).
    stream: (request, context) =>
      warnWhenNoLogprobs(
        (context.wholeReply ? readWholeOllamaChat : streamOllamaChat)({ connection, request, context }),
        request,
        config.name,
      ),
    listModels: (context) => listOllamaModels({ connection, context }),
    embed: (request, context) => embedWithOllama({ connection, request, context }),
    close: () => connection.client.close(),
  };
}
