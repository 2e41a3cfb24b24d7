/** Embeddings bodies read loosely: the usage each server sends, whole or in part. */
import { describe, expect, it } from 'vitest';
import { readOpenAiEmbeddings } from '../../../providers/openai/read-openai-listings.js';

const data = [{ object: 'embedding', index: 0, embedding: [0.5] }];

describe('readOpenAiEmbeddings usage', () => {
  it("takes OpenAI's prompt_tokens and total_tokens", () => {
    expect(readOpenAiEmbeddings({ data, usage: { prompt_tokens: 4, total_tokens: 4 } }, 'p').usage).toEqual({
      promptTokens: 4,
      totalTokens: 4,
    });
  });

  // Jina's /v1/embeddings counts total_tokens only (https://github.com/api7/aisix/issues/474): an embedding's
  // tokens are all input, so that count is the prompt's.
  it('takes total_tokens alone as the input tokens', () => {
    expect(readOpenAiEmbeddings({ data, usage: { total_tokens: 7 } }, 'p').usage).toEqual({ promptTokens: 7, totalTokens: 7 });
  });

  it('has no usage when the server sends none or null (OPEA)', () => {
    expect(readOpenAiEmbeddings({ data, usage: null }, 'p').usage).toBeUndefined();
    expect(readOpenAiEmbeddings({ data }, 'p').usage).toBeUndefined();
  });
});
