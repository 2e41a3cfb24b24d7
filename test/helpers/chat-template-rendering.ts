/** Renders a model's own Jinja chat template with @huggingface/jinja, and probes what it supports as minja does. */
import { Template } from '@huggingface/jinja';

export type TemplateInput = {
  messages: unknown[];
  tools?: unknown[];
  addGenerationPrompt?: boolean;
};

/** The names llama.cpp gives templates besides the conversation (the library defines strftime_now and raise_exception). */
export function renderChatTemplate(source: string, input: TemplateInput): string {
  const template = new Template(source);
  return template.render({
    messages: input.messages,
    ...(input.tools && input.tools.length > 0 ? { tools: input.tools } : {}),
    add_generation_prompt: input.addGenerationPrompt ?? true,
    bos_token: '',
    eos_token: '',
  });
}

export type TemplateCapabilities = {
  supports_tools: boolean;
  supports_tool_calls: boolean;
  supports_system_role: boolean;
  supports_parallel_tool_calls: boolean;
};

const probeTool = {
  type: 'function',
  function: { name: 'probe_tool_name', description: 'd', parameters: { type: 'object', properties: {} } },
};
const probeCall = { id: 'call_000000001', type: 'function', function: { name: 'probe_call_name', arguments: '{"argument_probe": 1}' } };

function rendersText(source: string, input: TemplateInput, needle: string): boolean {
  try {
    return renderChatTemplate(source, input).includes(needle);
  } catch {
    return false;
  }
}

/**
 * llama.cpp learns a template's capabilities by rendering probe conversations and looking for the probes in
 * the output (`chat_template_caps`, common/chat.cpp and vendor/minja/chat-template.hpp); so does this.
 */
export function templateCapabilities(source: string): TemplateCapabilities {
  const user = { role: 'user', content: 'Hi' };
  const withCall = (calls: unknown[]) => [user, { role: 'assistant', content: '', tool_calls: calls }];
  return {
    supports_tools: rendersText(source, { messages: [user], tools: [probeTool] }, 'probe_tool_name'),
    supports_tool_calls: rendersText(source, { messages: withCall([probeCall]), addGenerationPrompt: false }, 'probe_call_name'),
    supports_system_role: rendersText(source, { messages: [{ role: 'system', content: 'system_probe' }, user] }, 'system_probe'),
    supports_parallel_tool_calls: rendersText(
      source,
      {
        messages: withCall([
          probeCall,
          { ...probeCall, id: 'call_000000002', function: { ...probeCall.function, name: 'probe_second_call' } },
        ]),
        addGenerationPrompt: false,
      },
      'probe_second_call',
    ),
  };
}
