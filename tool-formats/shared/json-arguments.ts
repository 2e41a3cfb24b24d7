/** Reads a call's arguments written as one JSON object after its name (`NAME{…}`, `NAME<sep>{…}`). */
import type { BodyFraming, DecodedBody } from './body-grammar.js';
import { isPlainObject } from './call-arguments.js';
import { parseLenientJson } from './lenient-json.js';

export type ArgumentsRead = { type: 'arguments'; value: Record<string, unknown> } | Extract<DecodedBody, { type: 'invalid' }>;

/**
 * `framing` as in `BodyGrammar.decode`: only a `closed` call may have its missing brackets repaired,
 * and an `unclosed` one that stops mid-value says so with `incomplete`.
 */
export function readArgumentsObject(text: string, name: string, framing: BodyFraming): ArgumentsRead {
  if (text.trim() === '') return { type: 'invalid', message: `The call to "${name}" has no arguments`, incomplete: framing === 'unclosed' };
  const parsed = parseLenientJson(text, { closeOpenBrackets: framing === 'closed' });
  if (parsed.type === 'error')
    return { type: 'invalid', message: `Unreadable arguments for "${name}": ${parsed.message}`, incomplete: parsed.incomplete };
  if (!isPlainObject(parsed.value)) return { type: 'invalid', message: `The arguments for "${name}" are not an object` };
  return { type: 'arguments', value: parsed.value };
}
