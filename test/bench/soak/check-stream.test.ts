/** The soak's judge: it must pass a faithful stream and catch each way a gateway could get one wrong. */
import { describe, expect, it } from 'vitest';
import { checkStream } from '../../../bench/soak/check-stream.js';
import { streamFrames } from '../../../bench/soak/fault-upstream.js';
import { scenarioFor, type FaultKind, type Scenario } from '../../../bench/soak/soak-scenarios.js';

function firstScenario(kind: FaultKind, withToolCall?: boolean): Scenario {
  for (let index = 0; index < 10_000; index++) {
    const scenario = scenarioFor(7, index);
    if (scenario.kind === kind && (withToolCall === undefined || Boolean(scenario.toolCall) === withToolCall)) return scenario;
  }
  throw new Error(`no ${kind} scenario`);
}

/** What a faithful relay of the upstream's frames looks like (the same OpenAI chunks). */
function relayed(scenario: Scenario, transform: (frames: string[]) => string[] = (frames) => frames): string {
  return transform(streamFrames(scenario).map((frame) => frame.toString())).join('');
}

const errorFrame =
  'data: {"error":{"message":"The upstream connection failed.","type":"upstream_error","param":null,"code":"upstream_unreachable"}}\n\n';

describe('checkStream', () => {
  it('passes a whole stream with its text, and one with its tool call too, keep-alive comments allowed', () => {
    const text = firstScenario('healthy', false);
    expect(
      checkStream(
        text,
        200,
        relayed(text, (frames) => [frames[0] as string, ': ping\n\n', ...frames.slice(1)]),
      ),
    ).toEqual({ outcome: 'complete' });
    const call = firstScenario('healthy', true);
    expect(checkStream(call, 200, relayed(call))).toEqual({ outcome: 'complete' });
  });

  it('catches a lost piece of text, a tool call without its arguments and a garbage frame passed on', () => {
    const text = firstScenario('healthy', false);
    expect(
      checkStream(
        text,
        200,
        relayed(text, (frames) => [frames[0] as string, ...frames.slice(2)]),
      ).violation,
    ).toMatch(/content differs/);
    const call = firstScenario('healthy', true);
    const withoutArguments = (frames: string[]) => frames.filter((frame) => !/"arguments":"[^"]/.test(frame));
    expect(checkStream(call, 200, relayed(call, withoutArguments)).violation).toMatch(/tool call differs/);
    const garbage = firstScenario('garbage');
    expect(checkStream(garbage, 200, relayed(garbage)).violation).toMatch(/not JSON reached the client/);
  });

  it('accepts a cut stream only when it ends with one error frame after a prefix of the text', () => {
    const stall = firstScenario('stall');
    const prefix = relayed(stall, (frames) => frames.slice(0, stall.framesBeforeFault));
    expect(checkStream(stall, 200, prefix + errorFrame)).toEqual({ outcome: 'error-frame' });
    expect(checkStream(stall, 200, prefix).violation).toMatch(/neither \[DONE\] nor an error frame/);
    expect(checkStream(stall, 200, prefix + errorFrame + errorFrame).violation).toMatch(/frames after an error frame/);
    // A stream that claims to be whole when the upstream never finished is not honest.
    expect(checkStream(stall, 200, `${prefix}data: [DONE]\n\n`).violation).toBeDefined();
  });

  it('accepts an HTTP error in the envelope for a failure before the stream, never for a healthy request', () => {
    const body = '{"error":{"message":"Upstream returned 500.","type":"upstream_error","param":null,"code":null}}';
    expect(checkStream(firstScenario('http-500'), 502, body)).toEqual({ outcome: 'http-error' });
    expect(checkStream(firstScenario('reset-before-headers'), 502, '<html>Bad Gateway</html>').violation).toMatch(/not JSON/);
    expect(checkStream(firstScenario('healthy'), 502, body).violation).toMatch(/not an honest ending for healthy/);
  });
});

describe('scenarioFor', () => {
  it('is the same for the same seed and request, and mostly healthy', () => {
    expect(scenarioFor(3, 42)).toEqual(scenarioFor(3, 42));
    const kinds = Array.from({ length: 1_000 }, (_, index) => scenarioFor(3, index).kind);
    const healthy = kinds.filter((kind) => kind === 'healthy').length;
    expect(healthy).toBeGreaterThan(700);
    expect(new Set(kinds).size).toBe(6);
  });
});
