/** A short, stable name for a JSON value's content (a schema, a tool list): memories keyed by content hold this, not the value. */
import { createHash } from 'node:crypto';

export function contentDigest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('base64url');
}
