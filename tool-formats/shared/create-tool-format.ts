/** Builds a ToolFormat from a family spec and the catalogue of every family's envelopes. */
import type { ToolCallParser, ToolFormat } from '../../src/core/index.js';
import type { EnvelopeCatalogue } from './envelope-catalogue.js';
import type { FamilySpec } from './family-spec.js';
import { withInlineMarkupRemoved } from './inline-markup.js';
import { createPassThroughParser } from './pass-through-parser.js';
import { renderHistoryAsText } from './render-history-as-text.js';
import { createReplyParser } from './reply-parser.js';
import { createResidueParser } from './residue-parser.js';
import { renderToolPrompt } from './tool-prompt.js';
import { createToolRoster } from './tool-roster.js';

export function createToolFormat(spec: FamilySpec, catalogue: EnvelopeCatalogue): ToolFormat {
  // Each family's reply syntax knows every family's markers, so building all of them takes megabytes; the
  // catalogue builds one when a parser first needs it (and keeps it), so a gateway pays for the families it serves.
  const noTools = createToolRoster([]);
  const markup = spec.inlineMarkup;
  const withFamilyMarkupRemoved = (parser: ToolCallParser) => (markup === undefined ? parser : withInlineMarkupRemoved(parser, markup));
  return {
    family: spec.family,
    specialTokens: spec.specialTokens ?? [],
    templateRendersTools: spec.templateRendersTools === true,
    renderTools: (tools, choice) => renderToolPrompt(tools, choice, spec.prompt, spec.renderCall),
    ...(spec.placeToolPrompt === undefined ? {} : { placeToolPrompt: spec.placeToolPrompt }),
    ...(spec.thinkingWithTools === undefined ? {} : { thinkingWithTools: spec.thinkingWithTools }),
    ...(spec.renderReasoningInText === undefined ? {} : { renderReasoningInText: spec.renderReasoningInText }),
    renderHistory: (messages) => renderHistoryAsText(messages, spec),
    renderCall: spec.renderCall,
    // With no tools offered nothing may become a call, so nothing is parsed at all, but for a reasoning
    // block the template opened.
    createParser: (tools, options) => {
      if (tools.length > 0) {
        const roster = createToolRoster(tools);
        const parser = withFamilyMarkupRemoved(createReplyParser(catalogue.syntaxFor(spec.family), roster, options));
        return spec.strippedResidue === undefined ? parser : createResidueParser(spec.family, parser, spec.strippedResidue, roster);
      }
      return options?.startsInReasoning === true
        ? withFamilyMarkupRemoved(createReplyParser(catalogue.reasoningSyntaxFor(spec.family), noTools, options))
        : createPassThroughParser();
    },
  };
}
