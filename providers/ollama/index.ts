/** The Ollama provider: native `/api/chat`, `/api/tags` and `/api/embed` behind the neutral adapter seam. */
export { createOllamaAdapter } from './create-ollama-adapter.js';
export { ollamaKind } from './ollama-kind.js';
