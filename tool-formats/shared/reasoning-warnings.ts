/** The warnings a reply parser gives about reasoning blocks whose start or end the text does not show. */
import type { ParsedEvent } from '../../src/core/index.js';
import type { ReasoningTag } from './envelope.js';

type WarningEvent = Extract<ParsedEvent, { type: 'warning' }>;

/** A template-opened block that never closed: its text was streamed as reasoning and is then the reply too. */
export function unclosedReasoningWarning(tag: ReasoningTag): WarningEvent {
  return {
    type: 'warning',
    code: 'reasoning-unclosed',
    message: `The reply was expected to begin inside reasoning (the model's chat template opens it), but no ${tag.close} came: its text was streamed as reasoning and is also delivered as content (calls in it included). Turn thinking off in the request (reasoning_effort "none", chat_template_kwargs.enable_thinking false) if the model was not reasoning.`,
  };
}

/** A close tag with no block open: the text before it was already content. */
export function orphanCloseWarning(tag: ReasoningTag): WarningEvent {
  return {
    type: 'warning',
    code: 'reasoning-orphan-close',
    message: `The reply has ${tag.close} with no reasoning block open, so it probably began inside reasoning the chat template opened: the tag was removed, but the text before it was delivered as content. Set startsInReasoning for this model in the gateway config to read that text as reasoning.`,
  };
}
