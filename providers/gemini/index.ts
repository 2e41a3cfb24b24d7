/** The `gemini` provider: its public entry point. */
export { createGeminiAdapter } from './create-gemini-adapter.js';
export { geminiKind } from './gemini-kind.js';
