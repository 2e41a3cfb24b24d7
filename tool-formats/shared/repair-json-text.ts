/** Valid JSON text for a lenient one, with the prompted lane's reader: what the native lane uses to repair broken tool arguments. */
import { parseLenientJson } from './lenient-json.js';

/** `{"city": "Paris",}` → `{"city":"Paris"}`; undefined when even the lenient reader cannot read it (a cut-off string, say). */
export function repairJsonText(text: string): string | undefined {
  const parsed = parseLenientJson(text, { closeOpenBrackets: true });
  return parsed.type === 'value' ? JSON.stringify(parsed.value) : undefined;
}
