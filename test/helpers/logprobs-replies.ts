/**
 * What the log-probability tests read of a Chat Completions reply through the real `openai` client: the
 * content, its tokens and the gateway's diagnostics, each chunk and reply checked against OpenAI's schema
 * on the way.
 */
import type OpenAI from 'openai';
import { expect } from 'vitest';
import { openAiSchemaErrors } from './openai-schema-validator.js';

/** The gateway's own addition to a reply (or its first chunk that has one). */
export type Diagnosed = { diagnostics?: { warnings?: { code: string; message: string }[] } };

/** A whole reply's content, its log probabilities, its schema errors and diagnostics, for one `toEqual`. */
export function wholeReplyLogprobs(completion: OpenAI.ChatCompletion) {
  return {
    content: completion.choices[0]?.message.content,
    logprobs: completion.choices[0]?.logprobs,
    schemaErrors: openAiSchemaErrors('CreateChatCompletionResponse', completion),
    diagnostics: (completion as Diagnosed).diagnostics,
  };
}

/** The chunks of a stream that carry text, each with its tokens, and the first diagnostics a chunk carried. */
export async function streamedTextLogprobs(stream: AsyncIterable<OpenAI.ChatCompletionChunk>) {
  const withText: { content: string | null | undefined; logprobs: unknown }[] = [];
  let diagnostics: Diagnosed['diagnostics'];
  for await (const chunk of stream) {
    expect(openAiSchemaErrors('CreateChatCompletionStreamResponse', chunk)).toEqual([]);
    const choice = chunk.choices[0];
    if (choice?.delta.content) withText.push({ content: choice.delta.content, logprobs: choice.logprobs?.content });
    diagnostics ??= (chunk as Diagnosed).diagnostics;
  }
  return { withText, diagnostics };
}
