/**
 * Validates a body whose `tools` is a known list (deeply frozen and shared by every request that
 * resends it, see src/core/immutable-values.ts) without walking the list each time: the list is
 * checked against its own schema once, and the rest of the body against the schema without it.
 * That is the whole schema's verdict only when the top-level schema constrains each property on its
 * own (no combinators, no additionalProperties), so other schemas get no shortcut.
 */
import type { Ajv } from 'ajv';
import { isDeeplyFrozen } from '../../src/core/immutable-values.js';

const knownListMember = 'tools';

/** Top-level keywords under which a property's validity depends on that property alone. */
const independentKeywords = new Set(['type', 'required', 'properties', 'title', 'description', '$comment']);

type PlainSchema = { properties?: Record<string, object> } & Record<string, unknown>;

/** True when the body is valid; false means "not known, or not valid": ask the full validator. */
export type KnownListCheck = (body: Record<string, unknown>) => boolean;

export function compileKnownListCheck(ajv: Ajv, schema: object): KnownListCheck | undefined {
  const plain = schema as PlainSchema;
  const listSchema = plain.properties?.[knownListMember];
  // References could reach across the split; ids would be compiled twice.
  const selfContained = !/"\$(ref|id|dynamicRef)"/.test(JSON.stringify(schema));
  if (!listSchema || !selfContained || Object.keys(plain).some((keyword) => !independentKeywords.has(keyword))) return undefined;
  const { [knownListMember]: _list, ...otherProperties } = plain.properties!;
  const validateRest = ajv.compile({ ...plain, properties: otherProperties });
  const validateList = ajv.compile(listSchema);
  // A known list cannot change, so its verdict holds for as long as the list lives.
  const verdicts = new WeakMap<object, boolean>();
  return (body) => {
    const list = body[knownListMember];
    if (!isDeeplyFrozen(list)) return false;
    let valid = verdicts.get(list as object);
    if (valid === undefined) {
      valid = validateList(list);
      verdicts.set(list as object, valid);
    }
    return valid && validateRest(body);
  };
}
