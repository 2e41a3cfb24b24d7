/**
 * Validates a body whose `tools` is a shared tool list (src/core/shared-tool-list.ts) without walking
 * the list each time: the list is checked against its own schema once (RequestCaches.toolListVerdicts,
 * keyed also by that schema's validator), and the rest of the body against the schema without it.
 * That is the whole schema's verdict only when the top-level schema constrains each property on its
 * own (no combinators, no additionalProperties), so other schemas get no shortcut.
 */
import type { Ajv } from 'ajv';
import type { RequestCaches } from '../../src/core/request-caches.js';
import { isSharedToolList } from '../../src/core/shared-tool-list.js';

const knownListMember = 'tools';

/** Top-level keywords under which a property's validity depends on that property alone. */
const independentKeywords: ReadonlySet<string> = new Set(['type', 'required', 'properties', 'title', 'description', '$comment']);

type PlainSchema = { properties?: Record<string, object> } & Record<string, unknown>;

/** True when the body is valid; false means "not known, or not valid": ask the full validator. */
export type KnownListCheck = (body: Record<string, unknown>, verdicts: RequestCaches['toolListVerdicts']) => boolean;

export function compileKnownListCheck(ajv: Ajv, schema: object): KnownListCheck | undefined {
  const plain = schema as PlainSchema;
  const listSchema = plain.properties?.[knownListMember];
  // References could reach across the split; ids would be compiled twice.
  const selfContained = !/"\$(ref|id|dynamicRef)"/.test(JSON.stringify(schema));
  if (!listSchema || !selfContained || Object.keys(plain).some((keyword) => !independentKeywords.has(keyword))) return undefined;
  const { [knownListMember]: _list, ...otherProperties } = plain.properties!;
  const validateRest = ajv.compile({ ...plain, properties: otherProperties });
  const validateList = ajv.compile(listSchema);
  return (body, verdicts) => {
    const list = body[knownListMember];
    if (!isSharedToolList(list)) return false;
    // A shared list cannot change, so its verdict holds for as long as the list lives.
    return verdicts.get(list, validateList, () => validateList(list)) && validateRest(body);
  };
}
