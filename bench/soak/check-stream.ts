/**
 * Judges one soak request as its client saw it: a whole stream must carry exactly the upstream's text
 * and tool call; a cut stream must end with exactly one OpenAI error frame after a prefix of the text;
 * a failure before the stream must be an HTTP error in OpenAI's envelope. Anything else is a violation.
 */
import { allowedOutcomes, type Outcome, type Scenario } from './soak-scenarios.js';

export type Verdict = { outcome: Outcome; violation?: undefined } | { outcome?: Outcome; violation: string };

type Chunk = {
  error?: { message?: unknown; type?: unknown };
  choices?: {
    delta?: { content?: string | null; tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[] };
    finish_reason?: string | null;
  }[];
};

type Collected = { content: string; calls: Map<number, { id: string; name: string; arguments: string }>; finish: string | undefined };

function isErrorEnvelope(value: unknown): boolean {
  const error = (value as Chunk | undefined)?.error;
  return typeof error === 'object' && error !== null && typeof error.message === 'string' && typeof error.type === 'string';
}

/** The `data:` payloads, or a violation when the body is not clean SSE (a keep-alive comment is allowed). */
function dataFrames(text: string): string[] | string {
  if (!text.endsWith('\n\n')) return `body does not end with a blank line: ${JSON.stringify(text.slice(-60))}`;
  const frames: string[] = [];
  for (const block of text.slice(0, -2).split('\n\n')) {
    if (block === ': ping') continue;
    if (!block.startsWith('data: ') || block.includes('\n')) return `not a single data line: ${JSON.stringify(block.slice(0, 80))}`;
    frames.push(block.slice('data: '.length));
  }
  return frames;
}

function collect(chunks: Chunk[]): Collected {
  const collected: Collected = { content: '', calls: new Map(), finish: undefined };
  for (const chunk of chunks) {
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    collected.content += choice.delta?.content ?? '';
    for (const fragment of choice.delta?.tool_calls ?? []) {
      const call = collected.calls.get(fragment.index) ?? { id: '', name: '', arguments: '' };
      if (fragment.id) call.id = fragment.id;
      if (fragment.function?.name) call.name = fragment.function.name;
      call.arguments += fragment.function?.arguments ?? '';
      collected.calls.set(fragment.index, call);
    }
    if (choice.finish_reason) collected.finish = choice.finish_reason;
  }
  return collected;
}

function judgeComplete(scenario: Scenario, collected: Collected): Verdict {
  const expected = scenario.contentPieces.join('');
  if (collected.content !== expected)
    return { violation: `content differs: ${JSON.stringify(collected.content.slice(0, 80))} for ${JSON.stringify(expected.slice(0, 80))}` };
  const call = scenario.toolCall;
  const calls = [...collected.calls.values()];
  if (call) {
    if (calls.length !== 1 || calls[0]?.id !== call.id || calls[0].name !== call.name || calls[0].arguments !== call.arguments) {
      return { violation: `tool call differs: ${JSON.stringify(calls).slice(0, 160)}` };
    }
  } else if (calls.length > 0) {
    return { violation: 'a tool call the upstream never sent' };
  }
  const finish = call ? 'tool_calls' : 'stop';
  if (collected.finish !== finish) return { violation: `finish_reason ${String(collected.finish)}, expected ${finish}` };
  return { outcome: 'complete' };
}

function classify(scenario: Scenario, status: number, text: string): Verdict {
  if (status !== 200) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return { violation: `HTTP ${status} with a body that is not JSON: ${JSON.stringify(text.slice(0, 80))}` };
    }
    return isErrorEnvelope(body) && status >= 400
      ? { outcome: 'http-error' }
      : { violation: `HTTP ${status} without OpenAI's error envelope` };
  }
  const frames = dataFrames(text);
  if (typeof frames === 'string') return { violation: frames };
  const chunks: Chunk[] = [];
  for (const [position, data] of frames.entries()) {
    const last = position === frames.length - 1;
    if (data === '[DONE]') {
      if (!last) return { violation: 'frames after [DONE]' };
      return judgeComplete(scenario, collect(chunks));
    }
    let chunk: Chunk;
    try {
      chunk = JSON.parse(data) as Chunk;
    } catch {
      return { violation: `a frame that is not JSON reached the client: ${JSON.stringify(data.slice(0, 80))}` };
    }
    if (chunk.error !== undefined) {
      if (!last) return { violation: 'frames after an error frame' };
      if (!isErrorEnvelope(chunk)) return { violation: `an error frame without message and type: ${data.slice(0, 120)}` };
      const content = collect(chunks).content;
      if (!scenario.contentPieces.join('').startsWith(content))
        return { violation: `text before the error frame is not the upstream's: ${JSON.stringify(content.slice(0, 80))}` };
      return { outcome: 'error-frame' };
    }
    chunks.push(chunk);
  }
  return { violation: 'the stream ended with neither [DONE] nor an error frame' };
}

export function checkStream(scenario: Scenario, status: number, text: string): Verdict {
  const verdict = classify(scenario, status, text);
  if (verdict.violation !== undefined) return verdict;
  if (!allowedOutcomes[scenario.kind].includes(verdict.outcome))
    return { outcome: verdict.outcome, violation: `${verdict.outcome} is not an honest ending for ${scenario.kind}` };
  return verdict;
}
