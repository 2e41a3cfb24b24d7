/** A tool result's text for a wire with no error flag of its own: an error is marked as one. */
// Anthropic's tool_result carries `is_error`; OpenAI's and Ollama's tool messages, and the families' text
// forms, hold only content, so without the mark the model is not told that its call failed (Bedrock's
// `status` and Gemini's `error` response carry the flag themselves).
import type { ToolResultPart } from './message.js';

export function toolResultText(result: ToolResultPart): string {
  return result.isError === true ? `Error: ${result.output}` : result.output;
}
