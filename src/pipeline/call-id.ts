/** Tool-call ids the gateway mints: `call_` + 24 hex characters, like OpenAI's. */
import { randomBytes } from 'node:crypto';

export function generateCallId(): string {
  return `call_${randomBytes(12).toString('hex')}`;
}
