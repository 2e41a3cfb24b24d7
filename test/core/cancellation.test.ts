/** cancellationFromSignal: an AbortSignal seen through the one Cancellation interface. */
import { describe, expect, it } from 'vitest';
import { cancellationFromSignal } from '../../src/core/cancellation.js';

describe('cancellationFromSignal', () => {
  it('follows the signal: aborted, its reason, and a once listener that fires once', () => {
    const controller = new AbortController();
    const cancellation = cancellationFromSignal(controller.signal);
    let heard = 0;
    cancellation.once('abort', () => heard++);
    expect(cancellation.aborted).toBe(false);
    const reason = new Error('gone');
    controller.abort(reason);
    controller.abort(new Error('later'));
    expect(cancellation.aborted).toBe(true);
    expect(cancellation.reason).toBe(reason);
    expect(heard).toBe(1);
  });

  it('removes a listener so that an abort no longer reaches it', () => {
    const controller = new AbortController();
    const cancellation = cancellationFromSignal(controller.signal);
    let heard = 0;
    const listener = () => heard++;
    cancellation.on('abort', listener);
    cancellation.removeListener('abort', listener);
    controller.abort(new Error('gone'));
    expect(heard).toBe(0);
  });
});
