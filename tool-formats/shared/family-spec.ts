/**
 * Everything a family provides: its syntax for the parser (envelopes, bare grammars, reasoning tags),
 * its prompt wording, and how it writes one call and tool results. The rest is shared.
 */
import type { FamilySyntax } from './envelope-catalogue.js';
import type { ResultRenderer } from './tool-result-text.js';
import type { CallRenderer, ToolPromptWording } from './tool-prompt.js';

export type FamilySpec = FamilySyntax & {
  prompt: ToolPromptWording;
  /** One call in the family's syntax; the family's parser must read it back as that call. */
  renderCall: CallRenderer;
  renderResults: ResultRenderer;
};
