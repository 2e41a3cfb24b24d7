/** A thought signature survives the trip through a client inside the tool-call id, whatever its text. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeGeminiCallId, encodeGeminiCallId } from '../../../providers/gemini/gemini-tool-call-id.js';

describe('Gemini tool-call ids', () => {
  it('round-trip any call id and signature, in characters Anthropic ids allow', () => {
    const callId = fc.stringMatching(/^[A-Za-z0-9-]{1,40}$/);
    const signature = fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 300 }).map((bytes) => Buffer.from(bytes).toString('base64')),
      fc.string({ minLength: 1, maxLength: 80 }),
    );
    fc.assert(
      fc.property(callId, signature, (id, thoughtSignature) => {
        const encoded = encodeGeminiCallId(id, thoughtSignature);
        expect(encoded).toMatch(/^[a-zA-Z0-9_-]+$/);
        expect(decodeGeminiCallId(encoded)).toEqual({ id, thoughtSignature });
      }),
    );
  });

  it('leaves an id without a signature as it is, and mints one when Gemini gave none', () => {
    expect(encodeGeminiCallId('abc', undefined)).toBe('abc');
    expect(decodeGeminiCallId('call_from_elsewhere')).toEqual({ id: 'call_from_elsewhere' });
    expect(encodeGeminiCallId(undefined, undefined)).toMatch(/^call_[0-9a-f]{24}$/);
  });
});
