/**
 * The matrix's scripted upstream decision: a request whose conversation carries a task
 * (`CREATE <file> WITH <marker>` or `PATCH <file> WITH <marker>`) first gets a call to the client's
 * own tool that creates the file, then, once a tool result is in the conversation, the final text.
 * Side requests (titles, summaries) get a short answer. Native lane: real tool_calls; prompted lane:
 * the call written as text in the model family's syntax, for the gateway to parse.
 */
import type { FakeOpenAiChatReply } from '../helpers/fake-openai-upstream.js';
import type { RecordedRequest } from '../helpers/loopback-server.js';

export type Task = { kind: 'create' | 'patch'; file: string; marker: string };

/** What a successful tool run puts in its output: computed by the shell, so the call itself does not contain it. */
export const shellResultToken = 'result-42';
const patchResultText = 'Updated the following files';

export type ChatRequestBody = {
  model?: string;
  tools?: { function?: { name?: string } }[];
  messages?: { role: string; content: unknown }[];
};

export function taskOf(text: string): Task | undefined {
  const match = /\b(CREATE|PATCH) ([\w.-]+) WITH ([\w-]+)/.exec(text);
  if (!match) return undefined;
  return { kind: match[1] === 'PATCH' ? 'patch' : 'create', file: match[2] as string, marker: match[3] as string };
}

export function finalText(task: Task): string {
  return `FINAL: ${task.marker} is done.`;
}

function shellCommand(task: Task): string {
  return `printf '%s\\n' ${task.marker} > ${task.file} && echo "result-$((6*7))-${task.marker}"`;
}

/** The call for the first offered tool the script knows, with arguments in that tool's own shape. */
function callFor(task: Task, offered: string[]): { name: string; arguments: Record<string, unknown> } | undefined {
  if (task.kind === 'patch' && offered.includes('apply_patch')) {
    return { name: 'apply_patch', arguments: { input: `*** Begin Patch\n*** Add File: ${task.file}\n+${task.marker}\n*** End Patch\n` } };
  }
  for (const name of offered) {
    switch (name) {
      case 'exec_command':
        return { name, arguments: { cmd: shellCommand(task) } };
      case 'shell':
        return { name, arguments: { command: ['bash', '-lc', shellCommand(task)] } };
      case 'Bash':
      case 'bash':
      case 'run_shell':
        return { name, arguments: { command: shellCommand(task), description: 'Create the file' } };
      case 'write_file':
        return { name, arguments: { path: task.file, content: task.marker } };
    }
  }
  return undefined;
}

const scriptedTools = ['apply_patch', 'exec_command', 'shell', 'Bash', 'bash', 'run_shell', 'write_file'];

/** Tool names offered natively, or, in the prompted lane, those of `known` named in the system prompt. */
export function offeredTools(body: ChatRequestBody, promptText: string, known = scriptedTools): string[] {
  if (body.tools?.length) return body.tools.flatMap((tool) => (tool.function?.name ? [tool.function.name] : []));
  // As the tool prompts name them: Hermes' JSON (`"name": "Bash"`, escaped inside the messages' JSON) or Qwen3-Coder's `<name>Bash</name>`.
  return known.filter((name) => new RegExp(`<name>${name}</name>|\\\\?"name\\\\?":\\s*\\\\?"${name}\\\\?"`).test(promptText));
}

function renderPromptedCall(model: string, call: { name: string; arguments: Record<string, unknown> }): string {
  if (/qwen3-coder/i.test(model)) {
    const parameters = Object.entries(call.arguments)
      .map(([key, value]) => `<parameter=${key}>\n${typeof value === 'string' ? value : JSON.stringify(value)}\n</parameter>`)
      .join('\n');
    return `I will do that.\n<tool_call>\n<function=${call.name}>\n${parameters}\n</function>\n</tool_call>`;
  }
  return `I will do that.\n<tool_call>\n${JSON.stringify({ name: call.name, arguments: call.arguments })}\n</tool_call>`;
}

export type ScriptOptions = { reasoning?: string };

export function scriptedReply(request: RecordedRequest, options: ScriptOptions = {}): FakeOpenAiChatReply {
  const body = (request.body ?? {}) as ChatRequestBody;
  const messages = body.messages ?? [];
  const text = JSON.stringify(messages);
  const task = taskOf(text);
  if (!task) return { type: 'chat', content: 'ok' };
  // (Not `<tool_response>`: the prompted lane's tool instructions mention it before any result exists.)
  const sawResult =
    messages.some((message) => message.role === 'tool') || text.includes(shellResultToken) || text.includes(patchResultText);
  const reasoning = options.reasoning === undefined ? {} : { reasoning: options.reasoning };
  if (sawResult) return { type: 'chat', content: finalText(task), ...reasoning };
  const call = callFor(task, offeredTools(body, text));
  if (!call) return { type: 'chat', content: `no known tool offered: ${JSON.stringify(offeredTools(body, text))}` };
  // Text before the call, as real models write: the AI SDK then sends that message back as an item_reference.
  if (body.tools?.length)
    return {
      type: 'chat',
      content: 'I will do that.',
      toolCalls: [{ id: `call_${task.marker}`, name: call.name, arguments: call.arguments }],
      ...reasoning,
    };
  return { type: 'chat', content: renderPromptedCall(body.model ?? '', call), ...reasoning };
}

/** The first request that carried the tool's result back: what the upstream received on the next turn. */
export function resultTurn(requests: RecordedRequest[], task: Task): RecordedRequest | undefined {
  return requests.find((request) => {
    const text = JSON.stringify((request.body as ChatRequestBody | undefined)?.messages ?? []);
    return text.includes(task.marker) && (text.includes(`${shellResultToken}-${task.marker}`) || text.includes(patchResultText));
  });
}
