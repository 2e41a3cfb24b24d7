/**
 * Whether the prompted lane may send the tools and tool history structurally and let the server render
 * them through the model's own chat template, while the gateway still parses the reply (DESIGN.md §1).
 */
// The model then sees, byte for byte, the prompt it was trained on. Safe only where all of these hold:
// - the server renders tools it was told not to parse: vLLM renders `tools` into the prompt even with
//   `tool_choice: "none"`, and then runs no tool parser (serving_chat.py: `tool_dicts` is None only when
//   the server was started with --exclude-tools-when-tool-choice-none, which the gateway cannot see, so a
//   model on such a server sees no tools: set the provider's toolCalling to `prompted` with `server:
//   generic` there). llama-server's /apply-template with `tool_choice: "none"` takes common/chat.cpp's
//   plain handler, which renders the template with the tools and adds nothing of its own (with Jinja on:
//   without it, the refusal is remembered, template-tools-refused.ts). SGLang drops the
//   tools with `tool_choice: "none"`, and unknown servers may too: they keep the text rendering;
// - the family's own templates render tools, calls and results faithfully (ToolFormat.templateRendersTools;
//   Kimi K2's first template drops assistant tool_calls, DeepSeek V3's renders no tools, Llama 3.1's
//   refuses parallel calls in history: those keep the gateway's rendering);
// - the client's tool_choice is `auto`: `required` or a named tool is an instruction only the gateway's
//   text prompt can carry, since the server is told `none`.
import type { ResolvedModel } from '../core/resolved-model.js';
import type { ToolChoice } from '../core/tool-definition.js';
import type { ToolFormat } from '../core/tool-format.js';

export function serverRendersTools(model: ResolvedModel, format: ToolFormat, choice: ToolChoice): boolean {
  if (choice.type !== 'auto' || format.templateRendersTools !== true) return false;
  return model.server === 'vllm' || model.server === 'llama.cpp';
}
