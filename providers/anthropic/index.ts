/** The `anthropic` provider: its public entry point. */
export { createAnthropicAdapter } from './create-anthropic-adapter.js';
