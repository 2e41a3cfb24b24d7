/** Short random ids for responses and tool calls that the upstream leaves unnamed. */
import { randomUUID } from 'node:crypto';

/** `prefix` followed by 24 hex characters, e.g. `call_3f2a…`. */
export function createRandomId(prefix: string): string {
  return prefix + randomUUID().replaceAll('-', '').slice(0, 24);
}
