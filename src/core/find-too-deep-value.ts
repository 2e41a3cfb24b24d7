/**
 * Finds a JSON value nested deeper than a limit, with recursion bounded by the limit (the point is values
 * too deep to recurse over: 100,000 nested objects overflow the stack in JSON.stringify and every other
 * recursive walk).
 */
import { gatewayError, type GatewayError } from './gateway-error.js';
import { isSharedToolList } from './shared-tool-list.js';

/** Where a too-deep value sits: keys and array indices from the root. */
export type JsonPath = (string | number)[];

/**
 * The path to the first object or array nested deeper than `maximumDepth` (the root container is depth 1),
 * or undefined when there is none. Shared tool lists are not entered: they were checked when they were
 * learnt (see known-tool-lists.ts), so a resent list costs nothing here.
 *
 * Recursive, but never deeper than `maximumDepth + 1` calls whatever the value's depth, so a value far
 * too deep to recurse over is still refused safely; and it allocates nothing unless it finds one (an
 * explicit stack of visits cost every request an object per container of its body).
 */
export function findTooDeepValue(root: unknown, maximumDepth: number): JsonPath | undefined {
  if (typeof root !== 'object' || root === null) return undefined;
  return maximumDepth <= deepestRecursion ? tooDeepBelow(root, 1, maximumDepth) : tooDeepIteratively(root, maximumDepth);
}

/** Past this limit (the config allows 1,024) the walk keeps its own stack, as deep as the value, on the heap. */
const deepestRecursion = 2048;

type Visit = { value: object; depth: number; parent: Visit | undefined; key: string | number };

function pathOf(visit: Visit): JsonPath {
  const path: JsonPath = [];
  for (let at: Visit | undefined = visit; at?.parent !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

function tooDeepIteratively(root: object, maximumDepth: number): JsonPath | undefined {
  const pending: Visit[] = [{ value: root, depth: 1, parent: undefined, key: '' }];
  for (let visit = pending.pop(); visit !== undefined; visit = pending.pop()) {
    if (visit.depth > maximumDepth) return pathOf(visit);
    if (isSharedToolList(visit.value)) continue;
    if (Array.isArray(visit.value)) {
      for (let index = visit.value.length - 1; index >= 0; index--) {
        const child: unknown = visit.value[index];
        if (typeof child === 'object' && child !== null) pending.push({ value: child, depth: visit.depth + 1, parent: visit, key: index });
      }
    } else {
      for (const key in visit.value) {
        const child: unknown = (visit.value as Record<string, unknown>)[key];
        if (typeof child === 'object' && child !== null) pending.push({ value: child, depth: visit.depth + 1, parent: visit, key });
      }
    }
  }
  return undefined;
}

function tooDeepBelow(container: object, depth: number, maximumDepth: number): JsonPath | undefined {
  if (depth > maximumDepth) return [];
  if (isSharedToolList(container)) return undefined;
  if (Array.isArray(container)) {
    for (let index = 0; index < container.length; index++) {
      const child: unknown = container[index];
      if (typeof child !== 'object' || child === null) continue;
      const path = tooDeepBelow(child, depth + 1, maximumDepth);
      if (path !== undefined) return (path.unshift(index), path);
    }
    return undefined;
  }
  for (const key in container) {
    const child: unknown = (container as Record<string, unknown>)[key];
    if (typeof child !== 'object' || child === null) continue;
    const path = tooDeepBelow(child, depth + 1, maximumDepth);
    if (path !== undefined) return (path.unshift(key), path);
  }
  return undefined;
}

/** `['tools', 0, 'function', 'parameters']` → `tools[0].function.parameters` (the way OpenAI names params). */
export function formatJsonPath(path: JsonPath): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${key}` : key), '');
}

/** How much of a too-deep value's path the error names: enough to find the field, not a hundred `.a`s. */
const namedPathSegments = 4;

/**
 * Deeper values would overflow the stack in the recursive code behind the edge (JSON.stringify of the
 * upstream body, the tool-prompt cache's keys, schema walks), which is a 500 or worse: refused here.
 */
export function tooDeepError(path: JsonPath, maxDepth: number): GatewayError {
  const param = formatJsonPath(path.slice(0, namedPathSegments));
  const more = path.length > namedPathSegments ? '…' : '';
  return gatewayError('json_too_deep', { message: `The request body nests deeper than ${maxDepth} levels, at '${param}${more}'.`, param });
}
