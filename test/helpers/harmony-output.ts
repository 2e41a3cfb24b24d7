/** Reads a gpt-oss reply (its Harmony tokens kept) into messages, as vLLM's `parse_chat_output` does with openai_harmony. */
import type { Generation } from './scripted-generation.js';

type HarmonyMessage = { channel: string; recipient?: string; content: string };

/** The messages of a generation, the stop token (`<|call|>`, `<|return|>`) left out. */
function harmonyMessages(generation: Generation): HarmonyMessage[] {
  const text = generation.tokens
    .slice(0, -1)
    .map((token) => token.text)
    .join('');
  return text
    .split('<|start|>assistant')
    .filter((part) => part !== '')
    .map((part) => {
      const [header = '', content = ''] = part.replace(/<\|end\|>$/, '').split('<|message|>');
      const [channel = '', ...rest] = header.replace('<|channel|>', '').replace('<|constrain|>', '').split(' ');
      const recipient = rest.find((word) => word.startsWith('to='))?.slice('to='.length);
      return { channel, content, ...(recipient ? { recipient } : {}) };
    });
}

/**
 * vLLM without a tool parser (vllm/entrypoints/openai/parser/harmony_utils.py, `parse_chat_output`): every
 * message but the last is reasoning, the last one's text is the content, and its recipient is dropped.
 */
export function harmonyReasoningAndContent(generation: Generation): { reasoning: string; content: string } {
  const messages = harmonyMessages(generation);
  const last = messages.at(-1);
  return {
    reasoning: messages
      .slice(0, -1)
      .map((message) => message.content)
      .join('\n'),
    content: last?.content ?? '',
  };
}
