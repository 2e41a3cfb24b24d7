/** Each server's words for a prompt longer than the context are read as one, and nothing else is. */
import { describe, expect, it } from 'vitest';
import { isContextOverflow } from '../../src/http/context-overflow.js';

describe('isContextOverflow', () => {
  it.each([
    [
      'vLLM input validation',
      "This model's maximum context length is 32768 tokens. However, you requested 40012 tokens (40000 in the messages, 12 in the completion). Please reduce the length of the messages or completion.",
      'BadRequestError',
    ],
    ['vLLM processor', 'The decoder prompt (length 40000) is longer than the maximum model length of 32768.', 'BadRequestError'],
    ['SGLang', "The input (345516 tokens) is longer than the model's context length (262144 tokens).", 'BadRequestError'],
    [
      'llama-server',
      'request (9000 tokens) exceeds the available context size (8192 tokens), try increasing it',
      'exceed_context_size_error',
    ],
    ['Anthropic', 'prompt is too long: 208310 tokens > 200000 maximum', 'invalid_request_error'],
    ['OpenAI', 'Your input exceeds the context window of this model.', 'context_length_exceeded'],
    [
      'Ollama (llama-server runner)',
      'the prompt is longer than the context length currently available to the model; shorten the prompt, adjust the context length in settings, or use a model with a longer context length',
      null,
    ],
    ['Ollama (before its llama-server runner)', 'the input length exceeds the context length', null],
    [
      'LM Studio',
      'Trying to keep the first 15857 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough.',
      null,
    ],
    ['LM Studio MLX engine', 'Prepared prompt has 9,120 tokens, exceeding the fitted 8,192-token context', null],
    [
      'LM Studio (newer)',
      'The number of tokens to keep from the initial prompt is greater than the context length (n_keep: 13055>= n_ctx: 4096). Try to load the model with a larger context length, or provide a shorter input.',
      null,
    ],
  ])('%s', (_server, message, type) => {
    expect(isContextOverflow(400, message, type)).toBe(true);
  });

  it('reads a 500 only in the exact words of the servers that answer an overflow with one', () => {
    expect(isContextOverflow(500, 'the request exceeds the available context size, try increasing it', 'server_error')).toBe(true);
    expect(isContextOverflow(500, 'The decoder prompt (length 40000) is longer than the maximum model length of 32768.', null)).toBe(true);
    expect(isContextOverflow(500, 'Prepared prompt has 9,120 tokens, exceeding the fitted 8,192-token context', null)).toBe(true);
    expect(isContextOverflow(500, 'Context size has been exceeded.', 'server_error')).toBe(false);
    expect(isContextOverflow(500, "This model's maximum context length is 8192 tokens.", 'server_error')).toBe(false);
    expect(isContextOverflow(500, 'internal error', 'exceed_context_size_error')).toBe(false);
  });

  it('leaves other refusals alone: another 400, and a rate limit that mentions the context', () => {
    expect(
      isContextOverflow(400, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set', 'BadRequestError'),
    ).toBe(false);
    expect(isContextOverflow(429, "This model's maximum context length is 8192 tokens.", 'rate_limit_error')).toBe(false);
  });
});
