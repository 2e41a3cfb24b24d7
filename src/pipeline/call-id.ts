/** Tool-call ids the gateway mints: `call_` + 24 hex characters, like OpenAI's. */
import { randomHex } from './random-hex.js';

export function generateCallId(): string {
  return `call_${randomHex(24)}`;
}
