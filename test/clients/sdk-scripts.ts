/**
 * The SDK clients' programs, run as child processes from their install prefix (so bare imports
 * resolve there). Each runs a tool loop with its own `write_file` tool that writes into WORK_DIR,
 * and prints the model's final text. Inputs come from the environment: GATEWAY, MODEL, PROMPT, WORK_DIR.
 */
const writeFileTool = `
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
const writeFile = ({ path, content }) => {
  writeFileSync(join(process.env.WORK_DIR, path), content + '\\n');
  return 'result-' + 6 * 7 + '-' + content;
};
const writeFileParameters = { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'], additionalProperties: false };
const { GATEWAY, MODEL, PROMPT } = process.env;
`;

export const sdkScripts = {
  /** The AI SDK (`ai` + `@ai-sdk/openai`): `api` is `chat` or `responses`; STORE is 'true' or 'false'. */
  aiSdk: `${writeFileTool}
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { createOpenAI } from '@ai-sdk/openai';
const sentBodies = [];
const recordingFetch = (url, init) => {
  sentBodies.push(String(init?.body ?? ''));
  return fetch(url, init);
};
const provider = createOpenAI({ baseURL: GATEWAY + '/v1', apiKey: 'sk-matrix', fetch: recordingFetch });
const model = process.env.API === 'chat' ? provider.chat(MODEL) : provider.responses(MODEL);
const result = await generateText({
  model,
  prompt: PROMPT,
  tools: { write_file: tool({ description: 'Write a file', inputSchema: jsonSchema(writeFileParameters), execute: async (input) => writeFile(input) }) },
  stopWhen: stepCountIs(4),
  providerOptions: { openai: { store: process.env.STORE === 'true' } },
});
console.log(result.text);
// What the provider sent on its last step: with store on, earlier output items go as item_reference.
const lastBody = sentBodies.at(-1) ?? '';
if (process.env.DEBUG_MATRIX) console.error(lastBody.slice(0, 1500));
console.log('ITEM_REFERENCES=' + (lastBody.match(/"item_reference"/g) ?? []).length);
`,

  /** LangChain JS (`@langchain/openai`): USE_RESPONSES is 'true' or 'false'. */
  langchain: `${writeFileTool}
import { ChatOpenAI } from '@langchain/openai';
import { HumanMessage, ToolMessage } from '@langchain/core/messages';
const llm = new ChatOpenAI({ model: MODEL, apiKey: 'sk-matrix', configuration: { baseURL: GATEWAY + '/v1' }, useResponsesApi: process.env.USE_RESPONSES === 'true', maxRetries: 0 });
const withTools = llm.bindTools([{ type: 'function', function: { name: 'write_file', description: 'Write a file', parameters: writeFileParameters } }]);
const messages = [new HumanMessage(PROMPT)];
for (let step = 0; step < 4; step++) {
  const reply = await withTools.invoke(messages);
  messages.push(reply);
  if (!reply.tool_calls?.length) { console.log(typeof reply.content === 'string' ? reply.content : JSON.stringify(reply.content)); break; }
  for (const call of reply.tool_calls) messages.push(new ToolMessage({ content: writeFile(call.args), tool_call_id: call.id }));
}
`,

  /** The Anthropic TypeScript SDK on /v1/messages. */
  anthropicSdk: `${writeFileTool}
import Anthropic from '@anthropic-ai/sdk';
const client = new Anthropic({ baseURL: GATEWAY, apiKey: 'sk-matrix', maxRetries: 0 });
const tools = [{ name: 'write_file', description: 'Write a file', input_schema: writeFileParameters }];
const messages = [{ role: 'user', content: PROMPT }];
for (let step = 0; step < 4; step++) {
  const reply = await client.messages.stream({ model: MODEL, max_tokens: 1024, tools, messages }).finalMessage();
  messages.push({ role: 'assistant', content: reply.content });
  const calls = reply.content.filter((block) => block.type === 'tool_use');
  if (!calls.length) { console.log(reply.content.filter((block) => block.type === 'text').map((block) => block.text).join('')); break; }
  messages.push({ role: 'user', content: calls.map((call) => ({ type: 'tool_result', tool_use_id: call.id, content: writeFile(call.input) })) });
}
`,

  /** The OpenAI Node SDK on Chat Completions, streaming. */
  openaiNode: `${writeFileTool}
import OpenAI from 'openai';
const client = new OpenAI({ baseURL: GATEWAY + '/v1', apiKey: 'sk-matrix', maxRetries: 0 });
const tools = [{ type: 'function', function: { name: 'write_file', description: 'Write a file', parameters: writeFileParameters } }];
const messages = [{ role: 'user', content: PROMPT }];
for (let step = 0; step < 4; step++) {
  const reply = (await client.chat.completions.stream({ model: MODEL, tools, messages }).finalChatCompletion()).choices[0].message;
  messages.push(reply);
  if (!reply.tool_calls?.length) { console.log(reply.content); break; }
  for (const call of reply.tool_calls) messages.push({ role: 'tool', tool_call_id: call.id, content: writeFile(JSON.parse(call.function.arguments)) });
}
`,

  /** The OpenAI Python SDK on Chat Completions (run with the venv's python). */
  openaiPython: `
import json, os
from openai import OpenAI
client = OpenAI(base_url=os.environ["GATEWAY"] + "/v1", api_key="sk-matrix", max_retries=0)
def write_file(path, content):
    with open(os.path.join(os.environ["WORK_DIR"], path), "w") as handle:
        handle.write(content + "\\n")
    return "result-" + str(6 * 7) + "-" + content
tools = [{"type": "function", "function": {"name": "write_file", "description": "Write a file", "parameters": {"type": "object", "properties": {"path": {"type": "string"}, "content": {"type": "string"}}, "required": ["path", "content"]}}}]
messages = [{"role": "user", "content": os.environ["PROMPT"]}]
for step in range(4):
    reply = client.chat.completions.create(model=os.environ["MODEL"], tools=tools, messages=messages).choices[0].message
    messages.append(reply.model_dump(exclude_none=True))
    if not reply.tool_calls:
        print(reply.content)
        break
    for call in reply.tool_calls:
        messages.append({"role": "tool", "tool_call_id": call.id, "content": write_file(**json.loads(call.function.arguments))})
`,
} as const;
