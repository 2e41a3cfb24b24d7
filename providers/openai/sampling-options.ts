/** The generation options OpenAI's API and llama-server's `/completion` both name the same way. */
import type { ChatRequest } from '../../src/core/chat-request.js';

export function setIfGiven(body: Record<string, unknown>, key: string, value: unknown): void {
  // undefined = not given; null, 0 and false are values and go upstream as they are.
  if (value !== undefined) body[key] = value;
}

/** temperature, top_p, stop, seed and the two penalties, each only when the client gave it. */
export function setSharedSamplingOptions(body: Record<string, unknown>, request: ChatRequest): void {
  setIfGiven(body, 'temperature', request.temperature);
  setIfGiven(body, 'top_p', request.topP);
  setIfGiven(body, 'stop', request.stop);
  setIfGiven(body, 'seed', request.seed);
  setIfGiven(body, 'presence_penalty', request.presencePenalty);
  setIfGiven(body, 'frequency_penalty', request.frequencyPenalty);
}
