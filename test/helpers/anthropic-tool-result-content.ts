/**
 * What Claude's API takes in a `tool_result`'s `content`: a string, or an array of text, image, document and
 * search result blocks (https://docs.anthropic.com/en/api/messages, `ToolResultBlockParam.content`; computer
 * use returns its screenshots as image blocks there: https://docs.anthropic.com/en/docs/agents-and-tools/computer-use).
 * Any other block is refused in the API's discriminator words (the form quoted in anthropic-tool-definitions.ts),
 * and an empty text block as Anthropic refuses one anywhere ("text content blocks must be non-empty").
 */
const toolResultBlockTypes = ['document', 'image', 'search_result', 'text'];

type WireBlock = { type?: unknown; text?: unknown; content?: unknown };

export function anthropicToolResultRefusal(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return undefined;
  for (const [position, message] of (messages as { content?: unknown }[]).entries()) {
    if (!Array.isArray(message.content)) continue;
    for (const [index, block] of (message.content as WireBlock[]).entries()) {
      if (block.type !== 'tool_result' || !Array.isArray(block.content)) continue;
      for (const [item, part] of (block.content as WireBlock[]).entries()) {
        const where = `messages.${position}.content.${index}.tool_result.content.${item}`;
        if (!toolResultBlockTypes.includes(String(part.type)))
          return `${where}: Input tag '${String(part.type)}' found using 'type' does not match any of the expected tags: ${toolResultBlockTypes.map((type) => `'${type}'`).join(', ')}`;
        if (part.type === 'text' && (typeof part.text !== 'string' || part.text === ''))
          return 'messages: text content blocks must be non-empty';
      }
    }
  }
  return undefined;
}
