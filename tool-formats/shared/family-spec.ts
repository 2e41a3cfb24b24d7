/** Everything a family provides: parser syntax, prompt wording, and how it writes calls and results. */
import type { ToolFormat } from '../../src/core/index.js';
import type { FamilySyntax } from './envelope-catalogue.js';
import type { InlineMarkup } from './inline-markup.js';
import type { HistoryRendering } from './render-history-as-text.js';
import type { StrippedResidue } from './stripped-residue.js';
import type { ToolPromptWording } from './tool-prompt.js';

/**
 * `renderCall` writes one call in the family's syntax (the family's parser must read it back);
 * `renderCalls` (optional) writes a turn's parallel calls the family's way, e.g. one Python list;
 * `renderResults` writes tool results as the text of one user turn;
 * `specialTokens` lists the family's markers that are special tokens in its models' tokenizers (a
 * server that skips special tokens removes them; see ToolFormat.specialTokens), each family's file
 * saying where it was read; `templateRendersTools` says the models' own templates render tools and tool
 * history faithfully (see ToolFormat.templateRendersTools).
 */
export type FamilySpec = FamilySyntax &
  HistoryRendering & {
    prompt: ToolPromptWording;
    /** What the family's markup leaves when a server strips special tokens, read by its own parser only. */
    strippedResidue?: StrippedResidue;
    /** Markup the family's own parser drops from text and reasoning, keeping what it wraps (Cohere's citations). */
    inlineMarkup?: InlineMarkup;
    /** Where the template puts the tool prompt, when not after the system text (see `ToolFormat.placeToolPrompt`). */
    placeToolPrompt?: ToolFormat['placeToolPrompt'];
    specialTokens?: readonly string[];
    templateRendersTools?: boolean;
    thinkingWithTools?: ToolFormat['thinkingWithTools'];
    renderReasoningInText?: ToolFormat['renderReasoningInText'];
  };
