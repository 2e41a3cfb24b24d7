/** The tool-format registry: family id → ToolFormat, built from every family spec. */
// Every family's parser recognises all registered envelopes (its own first), so adding a family here
// also teaches the others its syntax.
import type { ToolFormat } from '../src/core/index.js';
import { aprielFamily } from './apriel/apriel-family.js';
import { granite20bFcFamily } from './granite-20b-fc/granite-20b-fc-family.js';
import { graniteFamily } from './granite/granite-family.js';
import { granite4Family } from './granite4/granite4-family.js';
import { hunyuanFamily } from './hunyuan/hunyuan-family.js';
import { internlmFamily } from './internlm/internlm-family.js';
import { jambaFamily } from './jamba/jamba-family.js';
import { minimaxM1Family } from './minimax-m1/minimax-m1-family.js';
import { minimaxM2Family } from './minimax-m2/minimax-m2-family.js';
import { deepseekFamily } from './deepseek/deepseek-family.js';
import { deepseekV31Family } from './deepseek/deepseek-v31-family.js';
import { deepseekV32Family } from './deepseek-v32/deepseek-v32-family.js';
import { deepseekV4Family } from './deepseek-v4/deepseek-v4-family.js';
import { deepseekV41Family } from './deepseek-v4/deepseek-v41-family.js';
import { dotsFamily } from './dots/dots-family.js';
import { ernieFamily } from './ernie/ernie-family.js';
import { functionaryV31Family } from './functionary/functionary-v31-family.js';
import { functionaryV32Family } from './functionary/functionary-v32-family.js';
import { functoolsFamily } from './functools/functools-family.js';
import { gemmaFamily } from './gemma/gemma-family.js';
import { gemma4Family } from './gemma/gemma4-family.js';
import { genericJsonFamily } from './generic-json/generic-json-family.js';
import { glmFamily } from './glm/glm-family.js';
import { harmonyFamily } from './harmony/harmony-family.js';
import { hermesFamily } from './hermes/hermes-family.js';
import { kimiK2Family } from './kimi-k2/kimi-k2-family.js';
import { llama3Family } from './llama3/llama3-family.js';
import { longcatFamily } from './longcat/longcat-family.js';
import { mistralFamily } from './mistral/mistral-family.js';
import { mistralV11Family } from './mistral/mistral-v11-family.js';
import { mistralV7Family } from './mistral/mistral-v7-family.js';
import { mistralV13Family } from './mistral/mistral-v13-family.js';
import { pythonicFamily } from './pythonic/pythonic-family.js';
import { qwen3CoderFamily } from './qwen3-coder/qwen3-coder-family.js';
import { apertusFamily } from './apertus/apertus-family.js';
import { cohereFamily } from './cohere/cohere-family.js';
import { commandRFamily } from './command-r/command-r-family.js';
import { gigachatFamily } from './gigachat/gigachat-family.js';
import { nemotronFamily } from './nemotron/nemotron-family.js';
import { olmo3Family } from './olmo3/olmo3-family.js';
import { seedOssFamily } from './seed-oss/seed-oss-family.js';
import { step3Family } from './step3/step3-family.js';
import { createToolFormat } from './shared/create-tool-format.js';
import { createEnvelopeCatalogue } from './shared/envelope-catalogue.js';
import type { FamilySpec } from './shared/family-spec.js';
import { xlamFamily } from './xlam/xlam-family.js';
import { solarOpenFamily } from './solar-open/solar-open-family.js';
import { plamo3Family } from './plamo3/plamo3-family.js';
import { qwen25CoderFamily } from './qwen25-coder/qwen25-coder-family.js';
import { kimiK3Family } from './kimi-k3/kimi-k3-family.js';
import { openPanguFamily } from './openpangu/openpangu-family.js';
import { minicpmFamily } from './minicpm/minicpm-family.js';
import { hy3Family } from './hy3/hy3-family.js';
import { gigachat35Family } from './gigachat35/gigachat35-family.js';
import { k2HorizonFamily } from './k2-horizon/k2-horizon-family.js';
import { iquestCoderV2Family } from './iquest-coder-v2/iquest-coder-v2-family.js';
import { minimaxM3Family } from './minimax-m3/minimax-m3-family.js';
import { stepAudio2Family } from './step-audio-2/step-audio-2-family.js';
import { cwmFamily } from './cwm/cwm-family.js';
import { rwkvFamily } from './rwkv/rwkv-family.js';
import { museGlimmerFamily } from './muse-glimmer/muse-glimmer-family.js';
import { inklingFamily } from './inkling/inkling-family.js';

/** Registration order is also the fallback order between families sharing a start marker. */
export const familySpecs: readonly FamilySpec[] = [
  hermesFamily,
  llama3Family,
  pythonicFamily,
  genericJsonFamily,
  harmonyFamily,
  gemmaFamily,
  gemma4Family,
  qwen3CoderFamily,
  glmFamily,
  mistralFamily,
  mistralV7Family,
  mistralV11Family,
  mistralV13Family,
  deepseekFamily,
  deepseekV31Family,
  kimiK2Family,
  // The <tool_calls> / <|tool_call|> group.
  graniteFamily,
  granite20bFcFamily,
  granite4Family,
  internlmFamily,
  jambaFamily,
  hunyuanFamily,
  aprielFamily,
  minimaxM1Family,
  minimaxM2Family,
  seedOssFamily,
  step3Family,
  olmo3Family,
  gigachatFamily,
  apertusFamily,
  cohereFamily,
  commandRFamily,
  nemotronFamily,
  functoolsFamily,
  xlamFamily,
  functionaryV31Family,
  functionaryV32Family,
  longcatFamily,
  ernieFamily,
  deepseekV32Family,
  deepseekV4Family,
  deepseekV41Family,
  dotsFamily,
  // The issue 11 sweep, continued.
  solarOpenFamily,
  plamo3Family,
  qwen25CoderFamily,
  kimiK3Family,
  openPanguFamily,
  minicpmFamily,
  hy3Family,
  // The issue 11 sweep, last formats.
  gigachat35Family,
  k2HorizonFamily,
  iquestCoderV2Family,
  minimaxM3Family,
  stepAudio2Family,
  cwmFamily,
  rwkvFamily,
  museGlimmerFamily,
  inklingFamily,
];

export function createToolFormatRegistry(specs: readonly FamilySpec[] = familySpecs): Map<string, ToolFormat> {
  const catalogue = createEnvelopeCatalogue(specs);
  return new Map(specs.map((spec) => [spec.family, createToolFormat(spec, catalogue)]));
}
