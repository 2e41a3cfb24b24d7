/**
 * What observes a settled request waits for the end of the event loop's turn, then runs with the rest of
 * that turn's, in order; a reader flushes it first; a task that throws is reported and the others still run.
 */
import { describe, expect, it } from 'vitest';
import { AfterReply } from '../../src/plugins/after-reply.js';
import { startGateway, testProvider } from '../helpers/start-gateway.js';
import { startFakeOpenAiUpstream } from '../helpers/fake-openai-upstream.js';
import { metricSamples } from '../helpers/metric-samples.js';

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe('AfterReply', () => {
  it('runs the tasks of one turn together at its end, in the order they came', async () => {
    const done: string[] = [];
    const afterReply = new AfterReply(() => done.push('error'));
    afterReply.add(() => done.push('first'));
    afterReply.add(() => done.push('second'));
    afterReply.add(() => done.push('third'));
    expect(done).toEqual([]);
    await nextTurn();
    expect(done).toEqual(['first', 'second', 'third']);
  });

  it('runs what is pending at once on flush, once only, and waits for the next turn again after it', async () => {
    const done: string[] = [];
    const afterReply = new AfterReply(() => done.push('error'));
    afterReply.add(() => done.push('a'));
    afterReply.flush();
    expect(done).toEqual(['a']);
    await nextTurn();
    expect(done).toEqual(['a']);
    afterReply.add(() => done.push('b'));
    expect(done).toEqual(['a']);
    await nextTurn();
    expect(done).toEqual(['a', 'b']);
  });

  it('reports a task that throws and still runs the others; a task added by a task runs in the next turn', async () => {
    const done: string[] = [];
    const errors: unknown[] = [];
    const afterReply = new AfterReply((error) => errors.push(error));
    afterReply.add(() => {
      throw new Error('the log is gone');
    });
    afterReply.add(() => {
      done.push('after the failure');
      afterReply.add(() => done.push('added while running'));
    });
    await nextTurn();
    expect(errors).toEqual([new Error('the log is gone')]);
    expect(done).toEqual(['after the failure']);
    await nextTurn();
    expect(done).toEqual(['after the failure', 'added while running']);
  });
});

describe('readers of what waits', () => {
  it('a scrape and the usage route count a request that ended just before them', async () => {
    const upstream = await startFakeOpenAiUpstream();
    const gateway = await startGateway({
      server: { apiKeys: [{ key: 'sk-after-reply-0123', name: 'team-a', admin: true }] },
      providers: { local: testProvider('openai-compatible', `${upstream.url}/v1`, { toolCalling: 'native' }) },
    });
    try {
      upstream.enqueue({ type: 'chat', content: 'ok' });
      const headers = { authorization: 'Bearer sk-after-reply-0123', 'content-type': 'application/json' };
      const body = JSON.stringify({ model: 'local/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] });
      // Both readers in the same turn as the request's end: nothing gets a turn in between to write it.
      const [metrics, usage] = await gateway.app
        .inject({ method: 'POST', url: '/v1/chat/completions', headers, payload: body })
        .then(() =>
          Promise.all([
            gateway.app.inject({ method: 'GET', url: '/metrics', headers }),
            gateway.app.inject({ method: 'GET', url: '/v1/usage', headers }),
          ]),
        );
      const samples = metricSamples(metrics.body);
      expect(
        samples.get(
          'interlingua_requests_total{route="/v1/chat/completions",provider="local",model="gpt-4o-mini",status="200",key="team-a"}',
        ),
      ).toBe(1);
      expect(usage.json()).toMatchObject({ keys: [{ key: 'team-a', requests: 1 }] });
    } finally {
      await gateway.close();
      await upstream.close();
    }
  });
});
