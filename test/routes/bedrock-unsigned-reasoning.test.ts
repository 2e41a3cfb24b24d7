/**
 * Reasoning without a signature (another model's, kept by a Chat client as `reasoning_content`) in a history sent
 * to Claude on Bedrock: Claude refuses a thinking block it cannot verify ("thinking.signature: Field required",
 * which the fake answers as Converse does), so it is left out for Claude, as for Claude on Anthropic's API;
 * other Bedrock models get it unsigned.
 */
import { describe, expect, it } from 'vitest';
import { postForOk } from '../helpers/claude-and-bedrock.js';
import { claudeModels, claudeOnThreeProvidersForFile } from '../helpers/claude-on-three-providers.js';

const fakes = claudeOnThreeProvidersForFile();

type ConverseBody = { messages: { role: string; content: Record<string, unknown>[] }[] };

const history = (model: string) => ({
  model,
  messages: [
    { role: 'user', content: 'What is 6 × 7?' },
    { role: 'assistant', content: '42.', reasoning_content: 'Six sevens are forty-two.' },
    { role: 'user', content: 'And 6 × 8?' },
  ],
});

describe('unsigned reasoning in the history', () => {
  it('is left out for Claude on Bedrock, which would refuse it', async () => {
    await postForOk(`${fakes.gateway.baseUrl}/v1/chat/completions`, history(claudeModels.bedrock));
    const body = fakes.bedrock.requests.at(-1)!.body as ConverseBody;
    expect(body.messages.find((message) => message.role === 'assistant')?.content).toEqual([{ text: '42.' }]);
  });

  it('goes to another Bedrock model unsigned', async () => {
    await postForOk(`${fakes.gateway.baseUrl}/v1/chat/completions`, history('bedrock/amazon.nova-pro-v1:0'));
    const body = fakes.bedrock.requests.at(-1)!.body as ConverseBody;
    expect(body.messages.find((message) => message.role === 'assistant')?.content).toEqual([
      { reasoningContent: { reasoningText: { text: 'Six sevens are forty-two.' } } },
      { text: '42.' },
    ]);
  });
});
