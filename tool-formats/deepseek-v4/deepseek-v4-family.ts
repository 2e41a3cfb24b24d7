/** The deepseek-v4 family (DeepSeek V4 Flash, Pro): V3.2's DSML invokes in a `<｜DSML｜tool_calls>` section, results as `<tool_result>`. */
// The prompt, calls and results of DeepSeek's encoder `encoding/encoding_dsv4.py`: see dsv4-family-spec.ts.
// @see https://huggingface.co/deepseek-ai/DeepSeek-V4-Flash/blob/main/encoding/encoding_dsv4.py
import { toolCallsDialect } from '../shared/dsml-tokens.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { dsv4FamilySpec } from './dsv4-family-spec.js';

export const deepseekV4Family: FamilySpec = dsv4FamilySpec('deepseek-v4', toolCallsDialect);
