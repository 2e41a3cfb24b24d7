/**
 * A fake Ollama and one adapter on it, for a whole test file: call `useFakeOllama()` at the top of the
 * file and use `upstream` and `adapter`. They are live bindings, set once beforeAll has run; vitest
 * gives every test file its own instance of this module, so files never share them.
 */
import { afterAll, beforeAll } from 'vitest';
import type { ProviderAdapter } from '../../../src/core/index.js';
import { createOllamaAdapter } from '../../../providers/ollama/index.js';
import { startFakeOllamaUpstream, type FakeOllamaUpstream } from '../../helpers/fake-ollama-upstream.js';
import { ollamaConfig } from './ollama-test-kit.js';

export let upstream: FakeOllamaUpstream;
export let adapter: ProviderAdapter;

export function useFakeOllama(): void {
  beforeAll(async () => {
    upstream = await startFakeOllamaUpstream();
    adapter = createOllamaAdapter(ollamaConfig(upstream.url));
  });
  afterAll(async () => {
    await adapter.close?.();
    await upstream.close();
  });
}
