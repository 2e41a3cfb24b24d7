/** Renders a chat template with @huggingface/jinja as a server would for a chat request, or runs the ported encoder. */
import { Template } from '@huggingface/jinja';
import type { OpenAiMessage } from '../../../providers/openai/convert-to-openai-messages.js';
import type { ChatTemplateEntry } from './chat-template-catalogue.js';

/**
 * Tools in the Chat Completions shape, or none for the prompted lane (which sends none); `kwargs`: the
 * request's chat-template kwargs, which servers hand the template as variables.
 */
export function renderChatTemplate(
  entry: ChatTemplateEntry,
  messages: OpenAiMessage[],
  tools: unknown[] | undefined,
  kwargs: Record<string, unknown> = {},
): string {
  if ('encoder' in entry.template) return entry.template.encoder(messages, tools, kwargs);
  return new Template(entry.template.jinja).render({
    messages,
    ...(tools === undefined ? {} : { tools }),
    bos_token: entry.bosToken,
    eos_token: entry.eosToken,
    add_generation_prompt: true,
    ...kwargs,
  });
}
