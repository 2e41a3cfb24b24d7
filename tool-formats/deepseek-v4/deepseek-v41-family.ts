/** The deepseek-v41 family (DeepSeek V4.1): V4's prompt and results, its DSML tags spaced (`<｜DSML｜ calls>`, `<｜DSML｜ invoke …>`). */
// V4.1's encoder (`encoding.py` of its checkpoint, vLLM's copy `deepseek_v41_encoding.py`) writes V4's
// TOOLS_TEMPLATE, call turns and `<tool_result>` user turns with its own tag names, ` calls`, ` invoke` and
// ` parameter`: see dsv4-family-spec.ts. Its other changes (a `<｜System｜>` token, a numeric reasoning
// effort, system messages mid-conversation) are the server's encoder's, not the tool prompt's.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tokenizers/deepseek_v41_encoding.py
import { spacedCallsDialect } from '../shared/dsml-tokens.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { dsv4FamilySpec } from './dsv4-family-spec.js';

export const deepseekV41Family: FamilySpec = dsv4FamilySpec('deepseek-v41', spacedCallsDialect);
