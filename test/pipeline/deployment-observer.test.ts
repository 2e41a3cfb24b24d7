/**
 * What a deployment's `latency` strategy measures: the whole generation per output token, for streamed and
 * whole replies alike, so that the two kinds of request feed one figure with one meaning.
 */
import { describe, expect, it } from 'vitest';
import type { Deployment } from '../../src/config/config-types.js';
import { EventList } from '../../src/core/event-list.js';
import type { ResolvedModel } from '../../src/core/resolved-model.js';
import type { StreamEvent } from '../../src/core/stream-event.js';
import type { ChatRun } from '../../src/pipeline/chat-run.js';
import { DeploymentBalancer } from '../../src/pipeline/deployment-balancer.js';
import { DeploymentTargets } from '../../src/pipeline/deployment-observer.js';

const deployment: Deployment = {
  name: 'coder',
  strategy: 'latency',
  targets: [
    { model: 'streamer/m', weight: 1 },
    { model: 'whole/m', weight: 1 },
  ],
  cooldownMs: 30_000,
  sessionAffinity: false,
};

function target(provider: string): ResolvedModel {
  return { id: 'coder', provider, providerType: 'openai-compatible', model: 'm', family: 'hermes', toolCalling: 'native' };
}

function finish(outputTokens: number | undefined): StreamEvent {
  return { type: 'finish', reason: { unified: 'stop' }, usage: outputTokens === undefined ? {} : { inputTokens: 5, outputTokens } };
}

function run(model: ResolvedModel, events: AsyncIterable<StreamEvent>): ChatRun {
  return { model, toolCalling: 'native', events, attempts: 1 };
}

async function drain(events: AsyncIterable<StreamEvent>): Promise<void> {
  for await (const event of events) void event;
}

describe('the latency a deployment target is ranked by', () => {
  let now = 1_000;
  const clock = { now: () => now, random: () => 0.5 };

  it('is the whole generation per output token, streamed or whole: a stream whose headers come first but whose tokens come slowly ranks behind', async () => {
    const balancer = new DeploymentBalancer(clock);
    const streamer = target('streamer');
    const whole = target('whole');
    const observer = new DeploymentTargets(balancer, deployment, [streamer, whole]);

    // Streamed: headers after 1 ms, then 10 tokens over 200 ms (20 ms a token).
    const streamSent = observer.sending(streamer);
    now += 1;
    async function* slowTokens(): AsyncGenerator<StreamEvent> {
      for (let token = 0; token < 10; token++) {
        now += 20;
        yield { type: 'text-delta', delta: 'word' };
      }
      yield finish(10);
    }
    await drain(observer.answered(streamer, streamSent, run(streamer, slowTokens())).events);

    // Read whole: the same 10 tokens in 50 ms (5 ms a token), its headers only once it was generated.
    const wholeSent = observer.sending(whole);
    now += 50;
    await drain(
      observer.answered(whole, wholeSent, run(whole, new EventList([{ type: 'text-delta', delta: 'words' }, finish(10)]))).events,
    );

    expect(balancer.ownLoad(deployment, 'streamer/m').latencyMsPerToken).toBeCloseTo(20.1, 9);
    expect(balancer.ownLoad(deployment, 'whole/m').latencyMsPerToken).toBeCloseTo(5, 9);
    expect(balancer.order(deployment)).toEqual(['whole/m', 'streamer/m']);
  });

  it("counts a refusal's words as output when the upstream sent no usage (an OpenAI refusal streams as refusal deltas)", async () => {
    const balancer = new DeploymentBalancer(clock);
    const refuser = target('refuser');
    const observer = new DeploymentTargets(balancer, deployment, [refuser]);
    const sent = observer.sending(refuser);
    now += 80;
    // 16 characters of text and 16 of refusal: 8 tokens by the gateway's estimate, so 10 ms a token (20 without the refusal).
    const refusal = new EventList([
      { type: 'text-delta', delta: 'x'.repeat(16) },
      { type: 'refusal-delta', delta: 'y'.repeat(16) },
      finish(undefined),
    ]);
    await drain(observer.answered(refuser, sent, run(refuser, refusal)).events);
    expect(balancer.ownLoad(deployment, 'refuser/m').latencyMsPerToken).toBeCloseTo(10, 9);
  });

  it('counts the streamed text when the upstream sent no usage, and takes no sample from a reply that did not finish', async () => {
    const balancer = new DeploymentBalancer(clock);
    const streamer = target('streamer');
    const whole = target('whole');
    const observer = new DeploymentTargets(balancer, deployment, [streamer, whole]);
    const sent = observer.sending(whole);
    now += 40;
    // 32 characters: 8 tokens by the gateway's estimate, so 5 ms a token.
    await drain(
      observer.answered(whole, sent, run(whole, new EventList([{ type: 'text-delta', delta: 'x'.repeat(32) }, finish(undefined)]))).events,
    );
    expect(balancer.ownLoad(deployment, 'whole/m').latencyMsPerToken).toBeCloseTo(5, 9);

    const cutSent = observer.sending(streamer);
    async function* cutOff(): AsyncGenerator<StreamEvent> {
      now += 10;
      yield { type: 'text-delta', delta: 'partial' };
      throw new Error('socket hang up');
    }
    await expect(drain(observer.answered(streamer, cutSent, run(streamer, cutOff())).events)).rejects.toThrow('socket hang up');
    expect(balancer.ownLoad(deployment, 'streamer/m')).toEqual({ inFlight: 0, latencyMsPerToken: undefined });
  });
});
