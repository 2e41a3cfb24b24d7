/**
 * How a function call's thought signature survives a client round trip: inside the tool-call id.
 *
 * Gemini 3 rejects a history whose function calls lost their `thoughtSignature` (a 400), and the
 * OpenAI and Anthropic wire formats have no field for it on a tool call, but every client sends a
 * call's id back unchanged with the call and with its result. So the id is `<call id>__ts_<signature>`,
 * the signature in base64url (ids travel through Anthropic's `^[a-zA-Z0-9_-]+$` pattern too).
 * https://ai.google.dev/gemini-api/docs/thought-signatures
 */
import { generateCallId } from '../../src/core/random-id.js';

/** The signature was canonical base64, re-spelled as base64url (the usual case: a third shorter than the next). */
const base64Separator = '__ts_';
/** Any other text, as base64url of its UTF-8 bytes, so that it comes back exactly as it was. */
const textSeparator = '__tu_';

export type GeminiCallIdentity = { id: string; thoughtSignature?: string };

/** The client-facing id of a call Gemini sent (its own id when it gave one). */
export function encodeGeminiCallId(upstreamId: string | undefined, thoughtSignature: string | undefined): string {
  const id = upstreamId || generateCallId();
  if (!thoughtSignature) return id;
  const bytes = Buffer.from(thoughtSignature, 'base64');
  if (bytes.toString('base64') === thoughtSignature) return `${id}${base64Separator}${bytes.toString('base64url')}`;
  return `${id}${textSeparator}${Buffer.from(thoughtSignature, 'utf8').toString('base64url')}`;
}

/** Splits an id from the client back into Gemini's call id and signature. */
export function decodeGeminiCallId(clientId: string): GeminiCallIdentity {
  const base64At = clientId.indexOf(base64Separator);
  const textAt = clientId.indexOf(textSeparator);
  const at = base64At === -1 ? textAt : textAt === -1 ? base64At : Math.min(base64At, textAt);
  if (at === -1) return { id: clientId };
  const bytes = Buffer.from(clientId.slice(at + base64Separator.length), 'base64url');
  return { id: clientId.slice(0, at), thoughtSignature: at === base64At ? bytes.toString('base64') : bytes.toString('utf8') };
}
