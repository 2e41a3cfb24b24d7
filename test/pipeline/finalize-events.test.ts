/** finalizeEvents: an in-band error is redacted of configured secrets. */
import { describe, expect, it } from 'vitest';
import { replayEvents, type StreamEvent } from '../../src/core/stream-event.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import { SecretRedactor } from '../../src/core/secret-redactor.js';
import { DiagnosticsCollector } from '../../src/pipeline/diagnostics-collector.js';
import { finalizeEvents } from '../../src/pipeline/finalize-events.js';

const secret = 'sk-upstream-0123456789abcdef';

describe('finalizeEvents', () => {
  it('redacts an in-band error of configured secrets, keeping its type and status', async () => {
    const error = new GatewayError({ status: 502, type: 'upstream_error', code: 'upstream_unavailable', message: `key ${secret} cut` });
    const events: StreamEvent[] = [
      { type: 'response-start', id: 'r', model: 'm', warnings: [] },
      { type: 'error', error },
    ];
    const out: StreamEvent[] = [];
    const options = { warnings: [], diagnostics: new DiagnosticsCollector([]), provider: 'p', redactor: new SecretRedactor([secret]) };
    for await (const event of finalizeEvents(replayEvents(events), options)) out.push(event);
    const last = out.at(-1);
    expect(last).toMatchObject({ type: 'error', error: { status: 502, type: 'upstream_error' } });
    expect(last?.type === 'error' && last.error.message).not.toContain(secret);
  });
});
