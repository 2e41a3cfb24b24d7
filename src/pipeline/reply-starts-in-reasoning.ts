/** Whether a request's reply begins inside reasoning: the model's template opens it and the request leaves it on. */
import type { ChatRequest } from '../core/chat-request.js';

type ThinkingSwitch = 'on' | 'off' | undefined;

/** The template variables vLLM, SGLang and llama.cpp take, as the model families name their switch. */
const templateSwitches = ['enable_thinking', 'thinking'] as const;

/**
 * What the request says about thinking: `reasoning_effort: "none"` (Chat and Responses), Anthropic
 * `thinking: {type: "disabled"}`, or `chat_template_kwargs.enable_thinking` / `.thinking` (Qwen, GLM,
 * DeepSeek V3.1), the only switch that turns a template's thinking on.
 */
function thinkingSwitch(request: ChatRequest): ThinkingSwitch {
  if (request.thinkingDisabled === true || request.reasoningEffort === 'none') return 'off';
  const kwargs = request.openaiExtras?.['chat_template_kwargs'];
  if (typeof kwargs !== 'object' || kwargs === null) return undefined;
  for (const name of templateSwitches) {
    const value = (kwargs as Record<string, unknown>)[name];
    if (value === false) return 'off';
    if (value === true) return 'on';
  }
  return undefined;
}

export function replyStartsInReasoning(request: ChatRequest): boolean {
  const opening = request.model.opensInReasoning;
  if (opening === undefined) return false;
  const requested = thinkingSwitch(request);
  return opening === 'by-default' ? requested !== 'off' : requested === 'on';
}
