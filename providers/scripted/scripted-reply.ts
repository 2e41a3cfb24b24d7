/** What a scripted model says to one request: its script's turn for this point of the conversation, or the demo's. */
import type { ChatRequest } from '../../src/core/chat-request.js';
import type { ToolChoice, ToolDefinition } from '../../src/core/tool-definition.js';
import { exampleArguments } from './example-arguments.js';
import type { Script, ScriptedTurn } from './scripted-script.js';

export const demoModels: readonly string[] = [
  'qwen3-8b',
  'qwen3-coder-30b-a3b-instruct',
  'gpt-oss-20b',
  'llama-3.1-8b-instruct',
  'mistral-small-3.2',
  'gpt-4o-mini',
];

const introduction =
  "Hello from Interlingua's demo provider. No model server is configured, so this reply is scripted: " +
  'add a provider to your gateway config (see the README) to talk to a real model, or send tools with ' +
  'your request to see a tool call written in the model family’s own syntax and parsed back.';

const afterResult = 'The tool result came back to the demo model. A real model would now answer with it.';

/** The tools the model saw: natively, or written into its prompt (prompted lane). */
function offeredTools(request: ChatRequest): readonly ToolDefinition[] {
  return request.tools ?? request.promptedTools ?? [];
}

/** Which turn of the conversation this is: the script is played by position, so a request stands alone. */
function assistantTurns(request: ChatRequest): number {
  let turns = 0;
  for (const message of request.messages) if (message.role === 'assistant') turns++;
  return turns;
}

/** The tool_choice the model was given: natively, or the one its prompt was written for (prompted lane). */
function offeredChoice(request: ChatRequest): ToolChoice | undefined {
  return request.toolChoice ?? request.promptedToolChoice;
}

function demoTurn(request: ChatRequest): ScriptedTurn {
  const tools = offeredTools(request);
  const choice = offeredChoice(request);
  const chosen = choice?.type === 'tool' ? tools.find((tool) => tool.name === choice.name) : tools[0];
  if (!chosen || choice?.type === 'none') return { content: tools.length > 0 && assistantTurns(request) > 0 ? afterResult : introduction };
  if (assistantTurns(request) > 0) return { content: afterResult };
  return { content: `I'll call ${chosen.name}.`, toolCalls: [{ name: chosen.name, arguments: exampleArguments(chosen.parameters) }] };
}

/** Past the script's last turn, the last one is played again (an agent may loop once more than scripted). */
export function chooseTurn(script: Script | undefined, request: ChatRequest): ScriptedTurn {
  if (!script) return demoTurn(request);
  const index = Math.min(assistantTurns(request), script.turns.length - 1);
  return script.turns[index] as ScriptedTurn;
}
