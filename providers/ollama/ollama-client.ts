/** The one `ollama` package client per provider, hardened for a long-lived shared server process. */
import { Ollama, type AbortableAsyncIterator } from 'ollama';
import type { Dispatcher } from 'undici';
import type { ProviderConfig } from '../../src/config/config-types.js';
import { createOllamaFetch } from './create-ollama-fetch.js';

export class OllamaClient extends Ollama {
  /**
   * The package's Node build reads a local file when an image string names an existing path. Images
   * here come from clients, so that would let any client send the gateway's files upstream: images
   * are always base64 text by the time they reach this client, and pass through untouched.
   */
  override async encodeImage(image: Uint8Array | Buffer | string): Promise<string> {
    return typeof image === 'string' ? image : Buffer.from(image).toString('base64');
  }

  /**
   * The package forgets a stream only when it sees `done`; aborted or failed streams would pile up
   * in `ongoingStreamedRequests` for the life of the process. Call once a stream is over, however it ended.
   */
  release(stream: AbortableAsyncIterator<object>): void {
    const position = this.ongoingStreamedRequests.indexOf(stream);
    if (position !== -1) this.ongoingStreamedRequests.splice(position, 1);
  }
}

export function createOllamaClient(config: ProviderConfig, dispatcher: Dispatcher): OllamaClient {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(config.headers)) {
    // The API key wins over a configured Authorization header, whatever its case.
    if (!config.apiKey || name.toLowerCase() !== 'authorization') headers[name] = value;
  }
  if (config.apiKey) headers.Authorization = `Bearer ${config.apiKey}`;
  return new OllamaClient({
    host: config.baseUrl,
    fetch: createOllamaFetch({ dispatcher, provider: config.name, headers, limits: config.limits }),
  });
}
