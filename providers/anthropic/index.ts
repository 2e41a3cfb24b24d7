/** The `anthropic` provider: its public entry point. */
export { anthropicKind } from './anthropic-kind.js';
export { createAnthropicAdapter } from './create-anthropic-adapter.js';
