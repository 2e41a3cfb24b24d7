/** tapReply: what a reply that ended without usage streamed, for its estimate (docs/cost-and-budgets.md). */
import { describe, expect, it } from 'vitest';
import { replayEvents } from '../../src/core/event-list.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import type { StreamEvent } from '../../src/core/stream-event.js';
import { tapReply, type ReplyListener } from '../../src/pipeline/tap-reply.js';

/** The output characters each `incomplete` call reported, after the events are read to their end. */
async function reportedOutput(events: StreamEvent[]): Promise<number[]> {
  const reported: number[] = [];
  const listener: ReplyListener = {
    finished: () => undefined,
    failed: () => undefined,
    incomplete: (outputCharacters) => reported.push(outputCharacters),
  };
  for await (const event of tapReply(replayEvents(events), listener)) void event;
  return reported;
}

const start: StreamEvent = { type: 'response-start', id: 'chatcmpl-1', model: 'm', warnings: [] };
const refusal = "I'm sorry, I can't help with that.";

describe('tapReply', () => {
  it('counts the text of a reply finished without usage', async () => {
    const events: StreamEvent[] = [
      start,
      { type: 'text-delta', delta: refusal },
      { type: 'finish', reason: { unified: 'stop' }, usage: {} },
    ];
    expect(await reportedOutput(events)).toEqual([refusal.length]);
  });

  it("counts an OpenAI refusal's words, streamed as refusal deltas, as the reply they are", async () => {
    // The model generated those words as its reply, and the upstream billed them as output.
    const finish: StreamEvent = { type: 'finish', reason: { unified: 'stop', refusal: '', refusalIsReply: true }, usage: {} };
    expect(await reportedOutput([start, { type: 'refusal-delta', delta: refusal }, finish])).toEqual([refusal.length]);
  });

  it('counts the refusal words streamed before an error (a refusal cut off before its finish)', async () => {
    const upstreamGone = new GatewayError({ status: 502, type: 'upstream_error', code: 'upstream_unavailable', message: 'cut' });
    const cut: StreamEvent[] = [start, { type: 'refusal-delta', delta: refusal }, { type: 'error', error: upstreamGone }];
    expect(await reportedOutput(cut)).toEqual([refusal.length]);
    // Nothing generated: the upstream failed on its own, nothing to charge.
    expect(await reportedOutput([start, { type: 'error', error: upstreamGone }])).toEqual([]);
  });
});
