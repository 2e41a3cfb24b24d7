/** Which model names' chat templates open the reasoning block themselves (model-families.json `opensInReasoning`). */
import { describe, expect, it } from 'vitest';
import { providerKind } from '../../providers/index.js';
import { detectReasoningOpening } from '../../src/config/detect-model-family.js';
import { normalizeConfig } from '../../src/config/normalize-config.js';
import { resolveModel } from '../../src/config/resolve-model.js';

describe('detectReasoningOpening', () => {
  it.each([
    'Qwen/Qwen3.5-27B',
    'qwen3.6-35b-a3b',
    'Qwen/Qwen3-30B-A3B-Thinking-2507',
    'Qwen/Qwen3-VL-8B-Thinking',
    'Qwen/QwQ-32B',
    'deepseek-ai/DeepSeek-R1-0528',
    'deepseek-r1-distill-qwen-32b',
    'moonshotai/Kimi-K2-Thinking',
    'MiniMaxAI/MiniMax-M2',
    // Its template ends the generation prompt with 'Here are my reasoning steps:'; the answer follows [BEGIN FINAL RESPONSE].
    'ServiceNow-AI/Apriel-1.6-15b-Thinker',
    'nvidia/NVIDIA-Nemotron-Nano-9B-v2',
    'zai-org/GLM-4.7',
    'glm-5',
    // Its template ends the generation prompt with the think channel's <|open|>think<|sep|>.
    'moonshotai/Kimi-K3',
    // Its template opens '<think>\n' unless enable_thinking is false (llama.cpp's
    // models/templates/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.jinja); vLLM's nemotron_v3 reasoning tests read
    // 'This is a reasoning section</think>This is the rest' as reasoning, then content.
    'nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16',
    // vLLM's kimi_k25 reasoning parser forces thinking without chat_template_kwargs, and its tests read text
    // before an orphan </think> as reasoning (tests/reasoning/test_kimi_k25_reasoning_parser.py).
    'moonshotai/Kimi-K2.5',
    // The prompt ends with a fresh <think> (vLLM's tests/reasoning/test_step3_reasoning_parser.py: "Step3 treats
    // output as reasoning until </think> appears"; its Step3 examples end the prompt '<|BOT|>assistant\n<think>\n').
    'stepfun-ai/step3',
    // OLMo 3 Think's generation prompt opens <think>; vLLM's olmo3 reasoning tests read
    // 'The user is asking me not to think.</think>No thoughts!' as reasoning, then content.
    'allenai/Olmo-3-7B-Think',
    'allenai/Olmo-3.1-32B-Think',
  ])('%s opens reasoning unless the request turns it off', (name) => {
    expect(detectReasoningOpening(name)).toBe('by-default');
  });

  it('knows DeepSeek V3.1 thinks only when the request turns thinking on', () => {
    expect(detectReasoningOpening('deepseek-ai/DeepSeek-V3.1-Terminus')).toBe('when-enabled');
  });

  // llama.cpp's models/templates/DeepSeek-V3.2.jinja: `enable_thinking | default(true)`, then `<think>` after
  // `<｜Assistant｜>`; vLLM's and SGLang's V3.2 encoders default to chat mode (`thinking` false).
  it('knows DeepSeek V3.2 thinks by default on llama-server, and only when turned on elsewhere', () => {
    expect(detectReasoningOpening('deepseek-ai/DeepSeek-V3.2', 'llama.cpp')).toBe('by-default');
    expect(detectReasoningOpening('DeepSeek-V3.2-Exp-Q4_K_M.gguf', 'llama.cpp')).toBe('by-default');
    expect(detectReasoningOpening('deepseek-ai/DeepSeek-V3.2', 'vllm')).toBe('when-enabled');
    expect(detectReasoningOpening('deepseek-ai/DeepSeek-V3.2')).toBe('when-enabled');
    expect(detectReasoningOpening('deepseek-ai/DeepSeek-V3.1', 'llama.cpp')).toBe('when-enabled');
  });

  // vLLM's tokenizers/deepseek_v4.py: thinking on unless `thinking` / `enable_thinking` is given, and
  // encoding_dsv4.py ends the generation prompt with `<think>` in thinking mode, `</think>` in chat mode.
  it('knows DeepSeek V4 thinks by default on vLLM, and only when turned on elsewhere', () => {
    expect(detectReasoningOpening('deepseek-ai/DeepSeek-V4-Flash', 'vllm')).toBe('by-default');
    expect(detectReasoningOpening('deepseek-ai/DeepSeek-V4-Pro', 'sglang')).toBe('when-enabled');
    expect(detectReasoningOpening('deepseek-ai/DeepSeek-V4-Flash')).toBe('when-enabled');
  });

  it.each([
    'Qwen/Qwen3-8B',
    'Qwen/Qwen3-30B-A3B-Instruct-2507',
    'Qwen/QwQ-32B-Preview',
    'qwen3-coder-30b-a3b',
    'deepseek-v3-0324',
    'kimi-k2-instruct',
    'glm-4.5-air',
    'gpt-oss-20b',
    'llama3.1:8b',
    'allenai/Olmo-3-7B-Instruct',
    'stepfun-ai/Step-3.5-Flash',
  ])('%s does not', (name) => {
    expect(detectReasoningOpening(name)).toBeUndefined();
  });
});

describe('resolveModel: opensInReasoning', () => {
  const config = normalizeConfig(
    {
      providers: {
        local: {
          type: 'openai-compatible',
          baseUrl: 'http://127.0.0.1:8000/v1',
          models: { 'Qwen/QwQ-32B': { startsInReasoning: false }, 'my-thinker': { startsInReasoning: true } },
        },
        home: { type: 'ollama', baseUrl: 'http://127.0.0.1:11434' },
      },
    },
    {},
  );

  it('comes from the table on openai-compatible providers, and from config when set there', () => {
    expect(resolveModel(providerKind, config, 'local/Qwen/Qwen3.5-27B').opensInReasoning).toBe('by-default');
    expect(resolveModel(providerKind, config, 'local/Qwen/QwQ-32B').opensInReasoning).toBeUndefined();
    expect(resolveModel(providerKind, config, 'local/my-thinker').opensInReasoning).toBe('by-default');
  });

  it('is not assumed on Ollama, which applies its own template and reads reasoning itself', () => {
    expect(resolveModel(providerKind, config, 'home/qwen3.5:27b').opensInReasoning).toBeUndefined();
  });
});
