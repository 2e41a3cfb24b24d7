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
 * Request extras (`top_k`, `min_p`, …, as a client sends them to vLLM or llama-server) that Ollama takes
 * under the same names in `options` (api/types.go, Options; `repetition_penalty` is its `repeat_penalty`).
 */
const extraOptionNames: Readonly<Record<string, keyof OllamaWireOptions>> = {
  top_k: 'top_k',
  min_p: 'min_p',
  typical_p: 'typical_p',
  repeat_penalty: 'repeat_penalty',
  repetition_penalty: 'repeat_penalty',
  repeat_last_n: 'repeat_last_n',
  mirostat: 'mirostat',
  mirostat_tau: 'mirostat_tau',
  mirostat_eta: 'mirostat_eta',
};

/** Whether Ollama takes this request extra as one of its options. */
export function isOllamaOptionExtra(name: string): boolean {
  return Object.hasOwn(extraOptionNames, name);
}

/**
 * Returns `undefined` when nothing was given, so the model's Modelfile defaults apply untouched.
 * `null` means "not set" here: Ollama has no way to say "unset this option", and its server skips nulls anyway.
 */
export function convertToOllamaOptions(
  request: GenerationOptions & { openaiExtras?: Record<string, unknown> },
): OllamaWireOptions | undefined {
  const options: Record<string, unknown> = {};
  for (const [neutralName, ollamaName] of Object.entries(ollamaOptionNames)) {
    const value = request[neutralName as ForwardedOption];
    if (value !== undefined && value !== null) options[ollamaName] = value;
  }
  for (const [name, value] of Object.entries(request.openaiExtras ?? {}))
    if (isOllamaOptionExtra(name) && typeof value === 'number') options[extraOptionNames[name] as string] = value;
  return Object.keys(options).length > 0 ? (options as OllamaWireOptions) : undefined;
}
