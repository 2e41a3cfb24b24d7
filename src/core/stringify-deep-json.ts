/**
 * JSON.stringify for parsed JSON of any depth. Upstreams that send a tool call's arguments as an object
 * (Anthropic's `input`, Converse's `toolUse.input`, Gemini's `args`, Ollama's `arguments`) hand the
 * gateway a value it must turn back into argument text, and JSON.parse reads far deeper values than
 * JSON.stringify, which recurses, can write: 20,000 nested objects overflowed the stack, a 500 for the
 * whole reply. Such text is then what an OpenAI-compatible upstream would have sent as it is, and each
 * API treats it the same way whichever upstream wrote it.
 */

type Frame = { keys: readonly (string | number)[]; container: object; next: number };

/** JSON.stringify(value); when it nests too deep for that, the same text, written with a stack of its own. */
export function stringifyDeepJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    // Only the stack overflow is this function's business; a cycle or a BigInt is not JSON.
    if (!(error instanceof RangeError)) throw error;
    return stringifyIteratively(value);
  }
}

/** A value as JSON.stringify writes it inside a container: undefined and functions as null (arrays) or left out (objects). */
function isWritable(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

function stringifyIteratively(root: unknown): string {
  const pieces: string[] = [];
  const frames: Frame[] = [];
  const open = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) {
      pieces.push(JSON.stringify(value) ?? 'null');
      return;
    }
    if (Array.isArray(value)) {
      pieces.push('[');
      frames.push({ keys: value.map((_item, index) => index), container: value, next: 0 });
    } else {
      pieces.push('{');
      const members = value as Record<string, unknown>;
      frames.push({ keys: Object.keys(members).filter((key) => isWritable(members[key])), container: value, next: 0 });
    }
  };
  open(root);
  for (let frame = frames.at(-1); frame !== undefined; frame = frames.at(-1)) {
    const isArray = Array.isArray(frame.container);
    if (frame.next === frame.keys.length) {
      pieces.push(isArray ? ']' : '}');
      frames.pop();
      continue;
    }
    const key = frame.keys[frame.next]!;
    if (frame.next > 0) pieces.push(',');
    frame.next++;
    const child: unknown = (frame.container as Record<string | number, unknown>)[key];
    if (!isArray) pieces.push(`${JSON.stringify(key)}:`);
    if (isArray && !isWritable(child)) pieces.push('null');
    else open(child);
  }
  return pieces.join('');
}
