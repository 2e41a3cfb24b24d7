/** The readers of the servers' own answers, on bodies shaped as the servers' sources write them. */
import { describe, expect, it } from 'vitest';
import { readListedRoots, readLlamaServerProps } from '../../../providers/openai-compatible/read-server-answers.js';

describe('readListedRoots (vLLM /v1/models)', () => {
  it('reads each served name’s root, and a LoRA adapter’s base model through its parent', () => {
    // vllm/entrypoints/openai/serving_models.py, show_available_models: base models carry their path as
    // `root`; an adapter's `root` is its own folder and its `parent` the base model's served name.
    const body = {
      object: 'list',
      data: [
        { id: 'my-model', object: 'model', owned_by: 'vllm', root: 'Qwen/Qwen3-8B', parent: null, max_model_len: 32_768 },
        { id: 'sql-adapter', object: 'model', owned_by: 'vllm', root: '/adapters/sql-lora', parent: 'my-model' },
      ],
    };
    expect([...readListedRoots(body)]).toEqual([
      ['my-model', ['Qwen/Qwen3-8B']],
      ['sql-adapter', ['/adapters/sql-lora', 'Qwen/Qwen3-8B']],
    ]);
  });

  it('reads nothing from a listing without roots or that is not a listing', () => {
    expect(readListedRoots({ data: [{ id: 'gpt-4.1', object: 'model', owned_by: 'openai' }] }).size).toBe(0);
    expect(readListedRoots({ error: 'nope' }).size).toBe(0);
  });
});

describe('readLlamaServerProps', () => {
  it('takes model_path as what every name is, whatever --alias the model is served under', () => {
    // tools/server/server-context.cpp, the /props handler: `model_alias` and `model_path`.
    const props = { model_alias: 'my-model', model_path: '/models/Qwen3-8B-Q4_K_M.gguf', chat_template: '{{ x }}', build_info: 'b7100' };
    expect(readLlamaServerProps(props)).toMatchObject({ server: 'llama.cpp', servedModel: ['/models/Qwen3-8B-Q4_K_M.gguf'] });
  });
});
