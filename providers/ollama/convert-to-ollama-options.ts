/** Neutral generation options → Ollama's `options` object, sending only what the client gave. */
import type { GenerationOptions } from '../../src/core/index.js';
import type { OllamaWireOptions } from './ollama-wire-types.js';

type ForwardedOption = 'temperature' | 'topP' | 'stop' | 'seed' | 'maxOutputTokens' | 'presencePenalty' | 'frequencyPenalty';

/** Ollama's names for the options it shares with OpenAI (https://github.com/ollama/ollama/blob/main/docs/modelfile.md#valid-parameters-and-values). */
const ollamaOptionNames = {
  temperature: 'temperature',
  topP: 'top_p',
  stop: 'stop',
  seed: 'seed',
  maxOutputTokens: 'num_predict',
  presencePenalty: 'presence_penalty',
  frequencyPenalty: 'frequency_penalty',
} as const satisfies Record<ForwardedOption, keyof OllamaWireOptions>;

/**
 * Returns `undefined` when nothing was given, so the model's Modelfile defaults apply untouched.
 * `null` means "not set" here: Ollama has no way to say "unset this option", and its server skips nulls anyway.
 */
export function convertToOllamaOptions(request: GenerationOptions): OllamaWireOptions | undefined {
  const options: Record<string, unknown> = {};
  for (const [neutralName, ollamaName] of Object.entries(ollamaOptionNames)) {
    const value = request[neutralName as ForwardedOption];
    if (value !== undefined && value !== null) options[ollamaName] = value;
  }
  return Object.keys(options).length > 0 ? (options as OllamaWireOptions) : undefined;
}
