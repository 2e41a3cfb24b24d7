/** Runs one call on the shared Ollama client, bound to the caller's signal, with errors mapped. */
import { withOllamaRequestScope, type OllamaRequestScope } from './create-ollama-fetch.js';
import { mapOllamaError } from './map-ollama-error.js';

export type OllamaCallScope = OllamaRequestScope & { provider: string };

/** Rejects only with a GatewayError. */
export async function callOllama<T>(scope: OllamaCallScope, task: () => Promise<T>): Promise<T> {
  try {
    return await withOllamaRequestScope(scope, task);
  } catch (error) {
    throw mapOllamaError(error, scope);
  }
}
