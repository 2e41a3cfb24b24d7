/** The parser used when a request offers no tools: nothing is parsed, every byte is text. */
import type { ParsedEvent, ToolCallParser } from '../../src/core/index.js';

export function createPassThroughParser(): ToolCallParser {
  return {
    push: (text): ParsedEvent[] => (text === '' ? [] : [{ type: 'text', text }]),
    finish: (): ParsedEvent[] => [],
  };
}
