/** Renders a chat template with @huggingface/jinja as a server would for a chat request. */
import { Template } from '@huggingface/jinja';
import type { OpenAiMessage } from '../../../providers/openai/convert-to-openai-messages.js';
import type { ChatTemplateEntry } from './chat-template-catalogue.js';

/** Tools in the Chat Completions shape, or none for the prompted lane (which sends none). */
export function renderChatTemplate(entry: ChatTemplateEntry, messages: OpenAiMessage[], tools: unknown[] | undefined): string {
  return new Template(entry.template).render({
    messages,
    ...(tools === undefined ? {} : { tools }),
    bos_token: entry.bosToken,
    eos_token: entry.eosToken,
    add_generation_prompt: true,
  });
}
