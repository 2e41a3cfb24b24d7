/** The warning emitted when a request parameter has no Ollama equivalent. */
import type { Warning } from '../../src/core/index.js';

export function unsupportedParameterWarning(parameter: string, detail: string): Warning {
  return { code: 'unsupported-parameter', message: `Ollama does not support '${parameter}': ${detail}` };
}
