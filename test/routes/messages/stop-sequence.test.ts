/**
 * `stop_sequence` on the Messages API: which of the client's `stop_sequences` ended the reply, whole and
 * streamed. https://docs.anthropic.com/en/api/messages ("stop_sequence: Which custom stop sequence was
 * generated, if any.")
 */
import { describe, expect, it } from 'vitest';
import { accumulate, anthropicEvents, messagesBody, post, providers, useMessagesKit } from './messages-test-kit.js';

const messagesKit = useMessagesKit();

const body = (model: string, stream: boolean) => messagesBody(model, { stop_sequences: ['\n\nHuman:', 'STOP'], stream });

describe('a reply that an Anthropic upstream ended at one of the stop_sequences', () => {
  const stoppedAtSequence = () =>
    messagesKit.kit.anthropic.enqueue({
      type: 'message',
      content: [{ type: 'text', text: 'one, two, ' }],
      stopReason: 'stop_sequence',
      stopSequence: 'STOP',
    });

  it('whole: stop_reason stop_sequence names the sequence', async () => {
    stoppedAtSequence();
    const response = await post(messagesKit.url, body(`${providers.anthropic}/claude-sonnet-4-5`, false));
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text)).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: 'STOP' });
    expect(messagesKit.kit.anthropic.messageRequests().at(-1)?.body).toMatchObject({
      stop_sequences: ['\n\nHuman:', 'STOP'],
    });
  });

  it('streamed: message_delta names the sequence', async () => {
    stoppedAtSequence();
    const response = await post(messagesKit.url, body(`${providers.anthropic}/claude-sonnet-4-5`, true));
    const delta = anthropicEvents(response.text).find((event) => event.type === 'message_delta');
    expect(delta?.delta).toEqual({ stop_reason: 'stop_sequence', stop_sequence: 'STOP' });
    expect(accumulate(anthropicEvents(response.text)).content).toEqual([{ type: 'text', text: 'one, two, ' }]);
  });
});

describe('a reply that a vLLM upstream ended at one of the stop_sequences (its choice names the string in stop_reason)', () => {
  const stoppedAtSequence = () =>
    messagesKit.kit.openai.enqueue({ type: 'chat', content: 'one, two, ', finishReason: 'stop', stopReason: 'STOP' });

  it('whole: stop_reason stop_sequence names the sequence', async () => {
    stoppedAtSequence();
    const response = await post(messagesKit.url, body(`${providers.openai}/Qwen/Qwen3-8B`, false));
    expect(JSON.parse(response.text)).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: 'STOP' });
    expect(messagesKit.kit.openai.requests.at(-1)?.body).toMatchObject({ stop: ['\n\nHuman:', 'STOP'] });
  });

  it('streamed: message_delta names the sequence', async () => {
    stoppedAtSequence();
    const response = await post(messagesKit.url, body(`${providers.openai}/Qwen/Qwen3-8B`, true));
    const delta = anthropicEvents(response.text).find((event) => event.type === 'message_delta');
    expect(delta?.delta).toEqual({ stop_reason: 'stop_sequence', stop_sequence: 'STOP' });
  });
});

describe('a reply that ended otherwise', () => {
  it('an Anthropic end_turn keeps stop_sequence null', async () => {
    messagesKit.kit.anthropic.enqueue({ type: 'message', content: [{ type: 'text', text: 'done' }] });
    const response = await post(messagesKit.url, body(`${providers.anthropic}/claude-sonnet-4-5`, false));
    expect(JSON.parse(response.text)).toMatchObject({ stop_reason: 'end_turn', stop_sequence: null });
  });

  it('a stop string vLLM names that the client did not ask for, or a stop token id, is end_turn with stop_sequence null', async () => {
    for (const stopReason of ['<|im_end|>', 151645]) {
      messagesKit.kit.openai.enqueue({ type: 'chat', content: 'done', finishReason: 'stop', stopReason });
      const response = await post(messagesKit.url, body(`${providers.openai}/Qwen/Qwen3-8B`, false));
      expect(JSON.parse(response.text), String(stopReason)).toMatchObject({ stop_reason: 'end_turn', stop_sequence: null });
    }
  });

  it('an OpenAI-compatible stop says nothing of which sequence, so it stays end_turn with stop_sequence null', async () => {
    messagesKit.kit.openai.enqueue({ type: 'chat', content: 'done', finishReason: 'stop' });
    const response = await post(messagesKit.url, body(`${providers.openai}/Qwen/Qwen3-8B`, true));
    const delta = anthropicEvents(response.text).find((event) => event.type === 'message_delta');
    expect(delta?.delta).toEqual({ stop_reason: 'end_turn', stop_sequence: null });
  });
});
