/** The system-message rule for OpenAI-compatible servers: one leading system message, the rest in order. */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/core/message.js';
import { buildOpenAiRequestBody, foldSystemMessages } from '../../../providers/openai/build-openai-request-body.js';
import type { ResolvedModel } from '../../../src/core/resolved-model.js';

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });

describe('foldSystemMessages', () => {
  it('returns the same array when the only system message leads', () => {
    const messages: Message[] = [{ role: 'system', content: 'Be brief.' }, user('hi'), assistant('hello')];
    expect(foldSystemMessages(messages)).toBe(messages);
  });

  it('joins later system messages into the leading one, keeping everything else in order', () => {
    const messages: Message[] = [
      { role: 'system', content: 'Be brief.' },
      user('hi'),
      { role: 'system', content: 'Agents: claude' },
      assistant('hello'),
      user('bye'),
    ];
    expect(foldSystemMessages(messages)).toEqual([
      { role: 'system', content: 'Be brief.\n\nAgents: claude' },
      user('hi'),
      assistant('hello'),
      user('bye'),
    ]);
  });

  it('moves a lone late system message to the front and drops empty ones', () => {
    const messages: Message[] = [user('hi'), { role: 'system', content: '' }, { role: 'system', content: 'Note' }];
    expect(foldSystemMessages(messages)).toEqual([{ role: 'system', content: 'Note' }, user('hi')]);
  });

  it('folds two leading system messages too (instructions plus a developer item)', () => {
    const messages: Message[] = [{ role: 'system', content: 'A' }, { role: 'system', content: 'B' }, user('hi')];
    expect(foldSystemMessages(messages)).toEqual([{ role: 'system', content: 'A\n\nB' }, user('hi')]);
  });
});

describe('the request body', () => {
  const messages: Message[] = [{ role: 'system', content: 'A' }, user('hi'), { role: 'system', content: 'B' }];
  const model = { provider: 'p', model: 'm' } as unknown as ResolvedModel;

  it('folds for openai-compatible servers and keeps system messages in place for OpenAI', () => {
    const compatible = buildOpenAiRequestBody({ model, messages }, 'openai-compatible').messages as { role: string }[];
    expect(compatible.map((message) => message.role)).toEqual(['system', 'user']);
    const openai = buildOpenAiRequestBody({ model, messages }, 'openai').messages as { role: string }[];
    expect(openai.map((message) => message.role)).toEqual(['system', 'user', 'system']);
  });
});
