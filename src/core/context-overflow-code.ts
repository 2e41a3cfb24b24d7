/**
 * The code an error carries when the prompt does not fit the model's context, whatever the upstream called
 * it (src/http/context-overflow.ts reads the servers' words): OpenAI's own code, on which Codex gives up
 * rather than retrying. The Messages API says the same in Anthropic's words.
 */
export const contextOverflowCode = 'context_length_exceeded';
