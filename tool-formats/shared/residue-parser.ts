/** A family's parser behind its residue restorer, reporting stripped special tokens once the reply ends. */
import type { ParsedEvent, ToolCallParser } from '../../src/core/index.js';
import { noEvents } from './parsed-event-buffer.js';
import { ResidueRestorer } from './residue-restorer.js';
import { strippedTokensWarning } from './stripped-tokens-warning.js';
import type { StrippedResidue } from './stripped-residue.js';
import type { ToolRoster } from './tool-roster.js';

export function createResidueParser(family: string, inner: ToolCallParser, residue: StrippedResidue, roster: ToolRoster): ToolCallParser {
  const restorer = new ResidueRestorer(residue, roster);
  let finished = false;
  return {
    push(chunk) {
      if (finished) throw new Error('push() after finish()');
      const text = restorer.restore(chunk);
      return text === '' ? noEvents : inner.push(text);
    },
    finish() {
      if (finished) return [];
      finished = true;
      const rest = restorer.finish();
      const events: ParsedEvent[] = [...(rest === '' ? [] : inner.push(rest)), ...inner.finish()];
      // At the end, where the warning's place does not depend on how the reply was chunked.
      if (restorer.found.length > 0) events.push(strippedTokensWarning(family, restorer.found, restorer.restoredCount));
      return events;
    },
  };
}
