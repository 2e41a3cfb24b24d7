/** The request's thinking switches against the model's template: does the reply begin inside reasoning? */
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../src/core/chat-request.js';
import type { ReasoningOpening } from '../../src/core/resolved-model.js';
import { replyStartsInReasoning } from '../../src/pipeline/reply-starts-in-reasoning.js';

const request = (opensInReasoning: ReasoningOpening | undefined, fields: Partial<ChatRequest> = {}): ChatRequest => ({
  model: {
    id: 'p/m',
    provider: 'p',
    providerType: 'openai-compatible',
    model: 'm',
    family: 'hermes',
    toolCalling: 'prompted',
    ...(opensInReasoning ? { opensInReasoning } : {}),
  },
  messages: [],
  ...fields,
});
const kwargs = (values: Record<string, unknown>) => ({ openaiExtras: { chat_template_kwargs: values } });

describe('replyStartsInReasoning', () => {
  it('is never assumed for a model whose template does not open reasoning', () => {
    expect(replyStartsInReasoning(request(undefined))).toBe(false);
    expect(replyStartsInReasoning(request(undefined, kwargs({ enable_thinking: true })))).toBe(false);
  });

  it('is assumed by default, unless the request turns thinking off in any API’s words', () => {
    expect(replyStartsInReasoning(request('by-default'))).toBe(true);
    expect(replyStartsInReasoning(request('by-default', { reasoningEffort: 'high' }))).toBe(true);
    expect(replyStartsInReasoning(request('by-default', { reasoningEffort: 'none' }))).toBe(false);
    expect(replyStartsInReasoning(request('by-default', { thinkingDisabled: true }))).toBe(false);
    expect(replyStartsInReasoning(request('by-default', kwargs({ enable_thinking: false })))).toBe(false);
    expect(replyStartsInReasoning(request('by-default', kwargs({ thinking: false })))).toBe(false);
  });

  it('is assumed for a when-enabled model only when chat_template_kwargs turns thinking on', () => {
    expect(replyStartsInReasoning(request('when-enabled'))).toBe(false);
    expect(replyStartsInReasoning(request('when-enabled', { reasoningEffort: 'high' }))).toBe(false);
    expect(replyStartsInReasoning(request('when-enabled', kwargs({ thinking: true })))).toBe(true);
    expect(replyStartsInReasoning(request('when-enabled', kwargs({ enable_thinking: true })))).toBe(true);
    expect(replyStartsInReasoning(request('when-enabled', { ...kwargs({ thinking: true }), reasoningEffort: 'none' }))).toBe(false);
  });
});
