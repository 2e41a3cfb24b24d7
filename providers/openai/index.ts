/** The `openai` provider kind: the OpenAI API itself. */
export { openAiKind } from './openai-kind.js';
