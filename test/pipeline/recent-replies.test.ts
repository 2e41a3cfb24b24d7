/** The inspector's ring of recent prompted-lane replies is bounded by count and by size, whatever one reply holds. */
import { describe, expect, it } from 'vitest';
import { SecretRedactor } from '../../src/core/secret-redactor.js';
import { RecentReplies, type RecentReply } from '../../src/pipeline/recent-replies.js';

const megabyte = 'x'.repeat(1024 * 1024);

function hugeReply(id: string): RecentReply {
  return {
    id,
    time: '2026-01-01T00:00:00.000Z',
    model: 'local/Qwen/Qwen3-8B',
    family: 'hermes',
    key: null,
    raw: megabyte,
    content: megabyte,
    reasoning: megabyte,
    calls: Array.from({ length: 100 }, (_, index) => ({ id: `call_${index}`, name: 'write_file', arguments: megabyte })),
  };
}

describe('RecentReplies', () => {
  it('keeps at most a few hundred KB of one reply: every text cut, the calls capped', () => {
    const replies = new RecentReplies(4, (text) => text);
    replies.record(hugeReply('r1'));
    const [kept] = replies.list(null);
    expect(Buffer.byteLength(JSON.stringify(kept))).toBeLessThan(2 * 1024 * 1024);
    for (const text of [kept?.raw, kept?.content, kept?.reasoning, kept?.calls[0]?.arguments])
      expect(text).toMatch(/^x{65536}… \(cut at 65536 characters\)$/);
    expect(kept?.calls.map((call) => call.id)).toEqual(Array.from({ length: 16 }, (_, index) => `call_${index}`));
  });

  it('keeps the newest replies up to its capacity', () => {
    const replies = new RecentReplies(2, (text) => text);
    for (const id of ['r1', 'r2', 'r3']) replies.record({ ...hugeReply(id), calls: [] });
    expect(replies.list(null).map((reply) => reply.id)).toEqual(['r3', 'r2']);
  });

  it('shows each key only the replies to that key', () => {
    const replies = new RecentReplies(4, (text) => text);
    for (const [id, key] of [
      ['r1', 'alice'],
      ['r2', 'bob'],
      ['r3', 'alice'],
      ['r4', null],
    ] as const)
      replies.record({ ...hugeReply(id), calls: [], key });
    expect(replies.list('alice').map((reply) => reply.id)).toEqual(['r3', 'r1']);
    expect(replies.list('bob').map((reply) => reply.id)).toEqual(['r2']);
    expect(replies.list(null).map((reply) => reply.id)).toEqual(['r4']);
    expect(replies.list('mallory')).toEqual([]);
  });

  it('redacts a secret that straddles the cut before cutting (no half of it is kept)', () => {
    const secret = 'sk-provider-secret-0123456789';
    const replies = new RecentReplies(1, (text) => text.replaceAll(secret, '[REDACTED]'));
    // The secret starts ten characters before the 64 K cut.
    const raw = `${'x'.repeat(65536 - 10)}${secret}${'y'.repeat(100)}`;
    replies.record({ ...hugeReply('r1'), calls: [{ id: 'call_1', name: 'f', arguments: raw }], raw, content: raw, reasoning: raw });
    const [kept] = replies.list(null);
    for (const text of [kept?.raw, kept?.content, kept?.reasoning, kept?.calls[0]?.arguments]) {
      expect(text).toContain('[REDACTED]');
      expect(text).not.toContain(secret.slice(0, 10));
    }
  });

  it('redacts a secret holding quotes and backslashes that a diagnostic quotes from the model’s JSON', () => {
    const secret = 'pa"ss\\word-123';
    const redactor = new SecretRedactor([secret]);
    const replies = new RecentReplies(1, (text) => redactor.redact(text));
    // The model wrote the secret inside its JSON, so the diagnostic's text spells it JSON-escaped.
    const text = `<tool_call>{"name": "login", "arguments": {"password": ${JSON.stringify(secret)}`;
    const diagnostics = { unparsedToolCall: { format: 'hermes', text, reason: 'unclosed' as const } };
    replies.record({ ...hugeReply('r1'), calls: [], raw: 'x', content: '', reasoning: '', diagnostics });
    expect(replies.list(null)[0]?.diagnostics?.unparsedToolCall?.text).toBe(
      '<tool_call>{"name": "login", "arguments": {"password": "[REDACTED]"',
    );
  });

  it('records a reply whose diagnostics hold a near miss of a secret ending in a backslash (no broken JSON, no throw)', () => {
    const redactor = new SecretRedactor(['12345678\\']);
    const replies = new RecentReplies(1, (text) => redactor.redact(text));
    const diagnostics = { toolCallError: { code: 'unavailable_tool' as const, message: 'no tool 12345678"', availableTools: [] } };
    replies.record({ ...hugeReply('r1'), calls: [], raw: 'x', content: '', reasoning: '', diagnostics });
    expect(replies.list(null)[0]?.diagnostics).toEqual(diagnostics);
  });
});
