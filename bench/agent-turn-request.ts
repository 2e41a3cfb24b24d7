/**
 * A request the size of a Claude Code turn, serialised once and sent unchanged every time (an agent
 * resends its tools, system prompt and history on every turn): 24 tools with agent-sized schemas, a
 * 15 KB system prompt, and a long history of tool calls and their results, about 150 KB in all.
 */

const toolCount = 24;
const systemPromptBytes = 15_000;
const historyTurns = 22;

/** Sentences that read like an agent's instructions; repeated to the sizes above. */
const prose =
  "You are an interactive coding agent working in the user's repository. Read files before you change them, keep edits small, run the tests you touch, and explain what you did in a sentence or two. ";

function repeatTo(text: string, length: number): string {
  return text.repeat(Math.ceil(length / text.length)).slice(0, length);
}

/** A tool like Claude Code's: a paragraph of description and half a dozen described parameters (about 2 KB). */
function agentTool(index: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [position, name] of ['file_path', 'pattern', 'content', 'offset', 'limit', 'recursive'].entries()) {
    properties[name] = {
      type: position >= 3 ? (position === 5 ? 'boolean' : 'integer') : 'string',
      description: repeatTo(`The ${name.replace('_', ' ')} this action works on. `, 180),
    };
  }
  return {
    type: 'function',
    function: {
      name: `agent_tool_${index}`,
      description: repeatTo(prose, 900),
      parameters: { type: 'object', properties, required: ['file_path'], additionalProperties: false },
    },
  };
}

/** One turn of history: the assistant calls a tool, the tool answers with a file's worth of text. */
function historyTurn(index: number): Record<string, unknown>[] {
  const id = `toolu_${String(index).padStart(4, '0')}`;
  return [
    { role: 'user', content: `Step ${index}: look at the next file and tell me what it does.` },
    {
      role: 'assistant',
      content: `Reading part ${index}.`,
      tool_calls: [
        {
          id,
          type: 'function',
          function: {
            name: `agent_tool_${index % toolCount}`,
            arguments: JSON.stringify({ file_path: `src/module_${index}.ts`, offset: 0, limit: 400 }),
          },
        },
      ],
    },
    {
      role: 'tool',
      tool_call_id: id,
      content: repeatTo(
        `export function step${index}(input: string): string {\n  return input.trim(); // "quoted" and \\escaped\n}\n`,
        3_000,
      ),
    },
  ];
}

export function agentTurnRequestBody(model: string): Buffer {
  const body = {
    model,
    stream: true,
    messages: [
      { role: 'system', content: repeatTo(prose, systemPromptBytes) },
      ...Array.from({ length: historyTurns }, (_, index) => historyTurn(index)).flat(),
      { role: 'user', content: 'Now summarise what the modules do, in one paragraph.' },
    ],
    tools: Array.from({ length: toolCount }, (_, index) => agentTool(index)),
    temperature: 0,
  };
  return Buffer.from(JSON.stringify(body));
}
