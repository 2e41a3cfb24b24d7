/** The command-r family (Cohere Command R / R+, 2024): `Action: ```json [{"tool_name","parameters"}] ```` actions. */
// Read: after `Action:` a JSON fence holding the list of calls, as the tool-use template asks for; the
// fence ends the call. Written: the same action; tools as the template's Python signatures with
// docstrings. The template's `directly_answer` pseudo-tool is not offered: answering without an action
// does the same, and a call to it would only be rejected by the roster rule.
// @see https://huggingface.co/CohereForAI/c4ai-command-r-plus (tool use prompt template)
import type { ToolCallPart, ToolDefinition } from '../../src/core/index.js';
import { isPlainObject } from '../shared/call-arguments.js';
import type { Envelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { argumentsForRendering } from '../shared/format-json.js';
import { jsonCallGrammar } from '../shared/json-call-grammar.js';
import { jsonResultLines } from '../shared/tool-result-text.js';

const family = 'command-r';
/** The template shows `Action: ```json`; models also break the line after `Action:`. */
export const actionStarts = ['Action: ```json', 'Action:\n```json'];

const actionEnvelope: Envelope = {
  family,
  start: actionStarts,
  end: ['```'],
  kind: 'explicit',
  body: { type: 'tagged' },
  grammars: [jsonCallGrammar],
};

const actionObject = (call: Pick<ToolCallPart, 'name' | 'arguments'>) => ({
  tool_name: call.name,
  parameters: argumentsForRendering(call.arguments),
});

const renderAction = (calls: readonly Pick<ToolCallPart, 'name' | 'arguments'>[]) =>
  `Action: \`\`\`json\n${JSON.stringify(calls.map(actionObject), null, 4)}\n\`\`\``;

/** JSON Schema types as the Python annotations of the template's signatures. */
function pythonType(schema: unknown): string {
  const type = isPlainObject(schema) ? schema['type'] : undefined;
  const names: Record<string, string> = { string: 'str', integer: 'int', number: 'float', boolean: 'bool', array: 'List', object: 'Dict' };
  return typeof type === 'string' ? (names[type] ?? 'Any') : 'Any';
}

function renderSignature(tool: ToolDefinition): string {
  const properties = isPlainObject(tool.parameters['properties']) ? tool.parameters['properties'] : {};
  const entries = Object.entries(properties);
  const lines = [
    '```python',
    `def ${tool.name}(${entries.map(([name, schema]) => `${name}: ${pythonType(schema)}`).join(', ')}) -> List[Dict]:`,
    `    """${(tool.description ?? '').trim()}`,
  ];
  if (entries.length > 0) {
    lines.push('', '    Args:');
    for (const [name, schema] of entries) {
      const description = isPlainObject(schema) && typeof schema['description'] === 'string' ? schema['description'] : '';
      lines.push(`        ${name} (${pythonType(schema)}): ${description}`.trimEnd());
    }
  }
  lines.push('    """', '    pass', '```');
  return lines.join('\n');
}

export const commandRFamily: FamilySpec = {
  family,
  envelopes: [actionEnvelope],
  prompt: {
    introduction: '## Available Tools\nHere is a list of tools that you have available to you:',
    renderToolList: (tools) => tools.map(renderSignature).join('\n\n'),
    callInstructions: [
      "Write 'Action:' followed by a json-formatted list of actions that you want to perform in order to produce a good response to the user's last input. You can use any of the supplied tools any number of times, but you should aim to execute the minimum number of necessary actions for the input. Answer directly, without an action, if calling the tools is unnecessary. The list of actions you want to call should be formatted as a list of json objects, for example:",
      '```json',
      '[',
      '    {',
      '        "tool_name": title of the tool in the specification,',
      '        "parameters": a dict of parameters to input into the tool as they are defined in the specs, or {} if it takes no parameters',
      '    }',
      ']```',
    ].join('\n'),
    resultInstructions: 'Tool results come back to you in the next user turn as JSON objects: {"name": tool name, "output": result}.',
  },
  renderCall: (call) => renderAction([call]),
  // One action lists the turn's calls, as the template writes them.
  renderCalls: renderAction,
  renderResults: jsonResultLines,
};
