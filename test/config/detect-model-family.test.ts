/** Family detection from the model part of the name, with boundary-aware patterns from the data table. */
import { describe, expect, it } from 'vitest';
import {
  detectModelFamily,
  familyFromIdentity,
  knownFamilies,
  namedModelFamily,
  type FamilyMatch,
} from '../../src/config/detect-model-family.js';
import { RecentMemo } from '../../src/core/recent-memo.js';

describe('detectModelFamily', () => {
  it.each([
    ['Qwen/Qwen3-8B', 'hermes'],
    ['qwen2.5:7b-instruct', 'hermes'],
    ['Qwen/Qwen3-Coder-30B-A3B-Instruct', 'qwen3-coder'],
    ['qwen3-coder:30b', 'qwen3-coder'],
    ['openai/gpt-oss-20b', 'harmony'],
    ['gpt-oss:120b', 'harmony'],
    // The GGUF architecture Ollama's own gpt-oss files carry (general.architecture), read when a model is served under another name.
    ['gptoss', 'harmony'],
    ['deepseek-ai/DeepSeek-V3.1', 'deepseek-v31'],
    ['deepseek-ai/DeepSeek-V3', 'deepseek'],
    ['moonshotai/Kimi-K2-Instruct', 'kimi-k2'],
    ['zai-org/GLM-4.5-Air', 'glm'],
    ['mistralai/Mistral-Small-3.2-24B-Instruct-2506', 'mistral-v11'],
    ['mistral-small3.2:24b', 'mistral-v11'],
    ['mistralai/Magistral-Small-2506', 'mistral-v11'],
    ['mistralai/Magistral-Small-2509', 'mistral-v13'],
    ['mistralai/Devstral-Small-2507', 'mistral-v13'],
    ['devstral-small-2:24b', 'mistral-v13'],
    ['mistralai/Devstral-2-123B-Instruct-2512', 'mistral-v13'],
    ['mistralai/Ministral-3-14B-Instruct-2512', 'mistral-v13'],
    ['mistralai/Mistral-Large-3-675B-Instruct-2512', 'mistral-v13'],
    ['mistralai/Mistral-Small-3.1-24B-Instruct-2503', 'mistral-v7'],
    ['mistral-small3.1:24b', 'mistral-v7'],
    ['mistralai/Devstral-Small-2505', 'mistral-v7'],
    ['ministral-3b-2410', 'mistral'],
    ['mistralai/Mistral-Nemo-Instruct-2407', 'mistral'],
    ['devstral:24b', 'mistral'],
    ['google/gemma-3-27b-it', 'gemma'],
    ['google/gemma-4-31B-it', 'gemma4'],
    ['gemma4:e4b', 'gemma4'],
    ['meta-llama/Llama-3.2-3B-Instruct', 'pythonic'],
    ['meta-llama/Llama-3.1-8B-Instruct', 'llama3'],
    ['llama3.1:8b', 'llama3'],
    // Hermes fine-tunes speak Hermes' syntax, whatever base model their name also mentions.
    ['NousResearch/Hermes-3-Llama-3.1-8B', 'hermes'],
    ['NousResearch/Hermes-2-Pro-Mistral-7B', 'hermes'],
    ['hermes3:8b', 'hermes'],
    ['ibm-granite/granite-3.3-8b-instruct', 'granite'],
    ['granite3.2:8b', 'granite'],
    ['ibm-granite/granite-4.0-h-small', 'granite4'],
    ['granite4:micro', 'granite4'],
    ['ibm-granite/granite-20b-functioncalling', 'granite-20b-fc'],
    ['internlm/internlm2_5-7b-chat', 'internlm'],
    ['ai21labs/AI21-Jamba-1.5-Mini', 'jamba'],
    ['tencent/Hunyuan-A13B-Instruct', 'hunyuan'],
    ['ServiceNow-AI/Apriel-1.6-15b-Thinker', 'apriel'],
    ['MiniMaxAI/MiniMax-M1-80k', 'minimax-m1'],
    ['MiniMaxAI/MiniMax-Text-01', 'minimax-m1'],
    ['MiniMaxAI/MiniMax-M2', 'minimax-m2'],
    ['minimax-m2.5', 'minimax-m2'],
    ['microsoft/Phi-4-mini-instruct', 'functools'],
    ['phi4-mini:3.8b', 'functools'],
    ['fireworks-ai/llama-3-firefunction-v2', 'functools'],
    ['Salesforce/Llama-xLAM-2-8b-fc-r', 'xlam'],
    ['Salesforce/xLAM-2-32b-fc-r', 'xlam'],
    ['meetkai/functionary-medium-v3.1', 'functionary-v31'],
    ['meetkai/functionary-small-v3.2', 'functionary-v32'],
    ['meituan-longcat/LongCat-Flash-Chat', 'longcat'],
    ['baidu/ERNIE-4.5-21B-A3B-Thinking', 'ernie'],
    ['deepseek-ai/DeepSeek-V3.2-Exp', 'deepseek-v32'],
    ['deepseek-v3.2:cloud', 'deepseek-v32'],
    ['deepseek-ai/DeepSeek-V4-Flash', 'deepseek-v4'],
    ['deepseek-ai/DeepSeek-V4-Pro', 'deepseek-v4'],
    ['deepseek-v4-flash:cloud', 'deepseek-v4'],
    ['deepseek-ai/DeepSeek-V4.1-Flash', 'deepseek-v41'],
    ['deepseek-v41-flash-mlx', 'deepseek-v41'],
    ['deepseek-ai/DeepSeek-R1-Distill-Qwen-32B', 'deepseek'],
    ['rednote-hilab/dots.llm1.inst', 'dots'],
    ['gpt-4o-mini', 'generic-json'],
    ['claude-sonnet-4-5', 'generic-json'],
  ])('%s → %s', (model, family) => {
    expect(detectModelFamily(model).family).toBe(family);
  });

  it('never matches llama inside "ollama"', () => {
    expect(detectModelFamily('ollama-custom-model').family).toBe('generic-json');
    expect(detectModelFamily('myollama3:1b').family).toBe('generic-json');
  });

  it('never matches phi inside "dolphin", nor qwen inside a longer word', () => {
    expect(detectModelFamily('dolphin3:8b').family).toBe('generic-json');
    expect(detectModelFamily('dolphin-mixtral:8x7b').family).toBe('mistral');
    expect(detectModelFamily('notqwen-7b').family).toBe('generic-json');
  });

  it('matches case-insensitively after any name boundary', () => {
    for (const model of ['QWEN3-8B', 'org/qwen3', 'hf.co/unsloth/qwen3:8b', 'models_qwen3', 'my model qwen3']) {
      expect(detectModelFamily(model).family, model).toBe('hermes');
    }
  });

  it('falls back to generic-json with native tools', () => {
    expect(detectModelFamily('some-unheard-of-model')).toEqual({ family: 'generic-json', autoToolCalling: 'native' });
  });

  it('knows each family once', () => {
    expect(new Set(knownFamilies).size).toBe(knownFamilies.length);
    expect(knownFamilies).toContain('hermes');
    expect(knownFamilies).toContain('generic-json');
  });
});

describe('detectModelFamily: Seed-OSS, Step3, OLMo 3, GigaChat, Apertus, Cohere, Nemotron', () => {
  it.each([
    ['ByteDance-Seed/Seed-OSS-36B-Instruct', 'seed-oss'],
    ['stepfun-ai/step3', 'step3'],
    ['allenai/Olmo-3-7B-Instruct', 'olmo3'],
    ['olmo-3:7b', 'olmo3'],
    ['ai-sage/GigaChat3-10B-A1.8B', 'gigachat'],
    ['swiss-ai/Apertus-8B-Instruct-2509', 'apertus'],
    ['CohereLabs/c4ai-command-r7b-12-2024', 'cohere'],
    ['command-a-03-2025', 'cohere'],
    ['CohereForAI/c4ai-command-r-plus-08-2024', 'command-r'],
    ['command-r:35b', 'command-r'],
    ['nvidia/NVIDIA-Nemotron-Nano-9B-v2', 'nemotron'],
    ['nvidia/Llama-3_3-Nemotron-Super-49B-v1_5', 'nemotron'],
    ['nvidia/Llama-3.1-Nemotron-Nano-8B-v1', 'nemotron'],
  ])('%s → %s, prompted when auto', (model, family) => {
    expect(detectModelFamily(model)).toEqual({ family, autoToolCalling: 'prompted' });
  });

  it('leaves the names of neighbouring families with them', () => {
    // Nemotron-3-Nano writes Qwen3-Coder's syntax; Mistral-Nemotron is a Mistral; Step-3.5 is not Step3.
    expect(detectModelFamily('nvidia/Nemotron-3-Nano-30B-A3B').family).toBe('qwen3-coder');
    expect(detectModelFamily('mistral-nemotron').family).toBe('mistral');
    expect(detectModelFamily('stepfun-ai/Step-3.5-Flash').family).not.toBe('step3');
    expect(detectModelFamily('step3p5').family).not.toBe('step3');
    // Cohere's API-only models keep the generic entry.
    expect(detectModelFamily('command-light').family).toBe('generic-json');
  });
});

describe('detectModelFamily: names that reuse an existing syntax (issue 11 sweep)', () => {
  it.each([
    ['stepfun-ai/Step-3.5-Flash', 'qwen3-coder'],
    ['step3p5', 'qwen3-coder'],
    ['XiaomiMiMo/MiMo-V2-Flash', 'qwen3-coder'],
    ['naver-hyperclovax/HyperCLOVAX-SEED-Think-14B', 'glm'],
    ['inclusionAI/Ling-3-flash', 'glm'],
    ['internlm/Intern-S1', 'internlm'],
    ['internlm/Intern-S1-mini', 'internlm'],
    ['LGAI-EXAONE/EXAONE-4.0-32B', 'hermes'],
    ['LGAI-EXAONE/K-EXAONE-236B-A23B', 'hermes'],
    ['LiquidAI/LFM2-1.2B-Tool', 'pythonic'],
    ['LiquidAI/LFM2.5-8B-A1B', 'pythonic'],
    ['upstage/Solar-Open2-250B', 'solar-open'],
    ['pfnet/plamo-3-nict-31b-base', 'plamo3'],
    ['Qwen/Qwen2.5-Coder-32B-Instruct', 'qwen25-coder'],
    ['qwen2.5-coder:7b', 'qwen25-coder'],
    ['moonshotai/Kimi-K3', 'kimi-k3'],
    ['FreedomIntelligence/openPangu-Embedded-7B', 'openpangu'],
    ['openbmb/MiniCPM5-8B', 'minicpm'],
    ['tencent/Hy3', 'hy3'],
    ['hy3-preview', 'hy3'],
    // The last formats of the sweep: new families, and names that reuse a syntax.
    ['ai-sage/GigaChat3.5-Lightning', 'gigachat35'],
    ['gigachat-3.5', 'gigachat35'],
    ['LLM360/K2-Horizon', 'k2-horizon'],
    ['IQuestLab/IQuest-Coder-V2-32B', 'iquest-coder-v2'],
    ['IQuestLab/IQuest-Coder-V1-40B-Instruct', 'qwen3-coder'],
    ['Qwen/Qwen3.5-Coder-480B-A35B-Instruct', 'qwen3-coder'],
    ['poolside/Laguna-XS-2.1', 'glm'],
    ['tencent/Hy4-preview-FP8', 'hy3'],
    ['nvidia/NVIDIA-Nemotron-Nano-12B-v2', 'nemotron'],
    ['MiniMaxAI/MiniMax-M3', 'minimax-m3'],
    ['minimax-m3:latest', 'minimax-m3'],
    ['stepfun-ai/Step-Audio-2-mini', 'step-audio-2'],
    ['facebook/cwm', 'cwm'],
    ['BlinkDL/rwkv7-g1a-2.9b', 'rwkv'],
    ['RWKV/RWKV7-Goose-World3-2.9B-HF', 'rwkv'],
    ['muse-glimmer', 'muse-glimmer'],
    ['inkling-small', 'inkling'],
  ])('%s → %s', (model, family) => {
    expect(detectModelFamily(model)).toEqual({ family, autoToolCalling: 'prompted' });
  });

  it('keeps the older names where they were', () => {
    // MiMo-7B wrote Hermes' JSON; only MiMo-V2 moved to Qwen3-Coder's blocks. Ling 2 is no GLM.
    expect(detectModelFamily('XiaomiMiMo/MiMo-7B-RL').family).toBe('hermes');
    expect(detectModelFamily('stepfun-ai/step3').family).toBe('step3');
    expect(detectModelFamily('internlm/internlm2_5-7b-chat').family).toBe('internlm');
    expect(detectModelFamily('inclusionAI/Ling-lite').family).not.toBe('glm');
    expect(detectModelFamily('Qwen/Qwen2.5-7B-Instruct').family).toBe('hermes');
    expect(detectModelFamily('moonshotai/Kimi-K2-Instruct').family).toBe('kimi-k2');
    expect(detectModelFamily('tencent/Hunyuan-A13B-Instruct').family).toBe('hunyuan');
    expect(detectModelFamily('ai-sage/GigaChat3-10B-A1.8B').family).toBe('gigachat');
    expect(detectModelFamily('moonshotai/Kimi-K2-Instruct').family).not.toBe('k2-horizon');
    expect(detectModelFamily('tencent/Hy3').family).toBe('hy3');
    expect(detectModelFamily('MiniMaxAI/MiniMax-M2.5').family).toBe('minimax-m2');
    expect(detectModelFamily('stepfun-ai/step3').family).toBe('step3');
  });
});

describe('detectModelFamily with a memory (RequestCaches.modelFamilies)', () => {
  it('answers as without one, and looks each name up once', () => {
    const memory = new RecentMemo<string, FamilyMatch>(8);
    for (const model of ['Qwen/Qwen3-8B', 'gpt-oss-120b', 'something-unknown']) {
      expect(detectModelFamily(model, memory)).toEqual(detectModelFamily(model));
      expect(detectModelFamily(model, memory)).toBe(detectModelFamily(model, memory));
    }
    expect(memory.size).toBe(3);
  });
});

describe('familyFromIdentity (what a server reports a model to be)', () => {
  it('reads a repository id, a GGUF path, a snapshot folder and an architecture, the file or folder first', () => {
    expect(familyFromIdentity(['Qwen/Qwen3-8B'])).toEqual({ match: { family: 'hermes', autoToolCalling: 'prompted' }, name: 'Qwen3-8B' });
    expect(familyFromIdentity(['/models/Qwen3-Coder-30B-A3B-Instruct-Q4_K_M.gguf'])?.match.family).toBe('qwen3-coder');
    // A parent folder naming another family does not outweigh the model's own folder.
    expect(familyFromIdentity(['/srv/mistral-share/Qwen3-8B'])?.match.family).toBe('hermes');
    // A Hugging Face cache snapshot folder names nothing; its path does.
    expect(familyFromIdentity(['/root/.cache/huggingface/hub/models--Qwen--Qwen3-8B/snapshots/0a1b2c3d'])?.name).toBe(
      '/root/.cache/huggingface/hub/models--Qwen--Qwen3-8B/snapshots/0a1b2c3d',
    );
    // Ollama: the basename names the line before the architecture several lines share.
    expect(familyFromIdentity(['Qwen3-Coder', 'qwen3moe'])?.match.family).toBe('qwen3-coder');
    expect(familyFromIdentity(['no-such-line', 'gemma3'])?.name).toBe('gemma3');
  });

  it('says nothing when no name names a family (the table’s default is not a match)', () => {
    expect(familyFromIdentity(['/models/finetune-v2', 'custom'])).toBeUndefined();
    expect(namedModelFamily('my-model')).toBeUndefined();
    expect(namedModelFamily('gpt-4o')).toEqual({ family: 'generic-json', autoToolCalling: 'native' });
  });
});
