/**
 * Where each server reads an earlier assistant turn's reasoning from: the field the OpenAI-compatible
 * adapter replays it in, and, for a server that reads none, the prompted lane writes it into the turn's text.
 */
import type { ServerKind } from './server-kind.js';

export type ReasoningField = 'reasoning' | 'reasoning_content';

/**
 * The message field each server reads an assistant turn's reasoning from: vLLM's `reasoning`
 * (chat_utils.py `_parse_chat_message_content` copies it into both `reasoning` and `reasoning_content`
 * for the template; harmony_utils.py `parse_chat_input_to_harmony_message` makes it the analysis
 * message), llama-server's `reasoning_content` (common/chat.cpp `common_chat_msgs_parse_oaicompat`;
 * for gpt-oss it becomes the template's `thinking`), SGLang's `reasoning_content` (its message model,
 * handed to the template), Ollama's `/v1` `reasoning` (openai/openai.go, made the message's
 * `thinking`). LM Studio and unknown servers are sent nothing: whether they read it is not known.
 */
export function reasoningFieldOf(server: ServerKind | undefined): ReasoningField | undefined {
  switch (server) {
    case 'vllm':
    case 'ollama':
      return 'reasoning';
    case 'sglang':
    case 'llama.cpp':
      return 'reasoning_content';
    default:
      return undefined;
  }
}
