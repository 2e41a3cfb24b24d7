/** A ToolFormat whose parsers leave out call ids, for the shared contract, which compares calls without them. */
// Mistral and Kimi-K2 write ids in their syntax, so their parsers report them; their own tests check
// the ids.
import type { ParsedEvent, ToolFormat } from '../../../src/core/index.js';

function withoutId(event: ParsedEvent): ParsedEvent {
  return event.type === 'tool-call' ? { type: 'tool-call', name: event.name, arguments: event.arguments } : event;
}

export function withoutCallIds(format: ToolFormat): ToolFormat {
  return {
    ...format,
    createParser(tools, options) {
      const parser = format.createParser(tools, options);
      return { push: (text) => parser.push(text).map(withoutId), finish: () => parser.finish().map(withoutId) };
    },
  };
}
