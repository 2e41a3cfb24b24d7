/** PLaMo 3's tool-request tags: `<|plamo:begin_…:plamo|>` / `<|plamo:end_…:plamo|>` pairs around requests, names and arguments. */
// Not added special tokens, so they arrive as plain text that may be split across chunks.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/plamo3_tool_parser.py

const tag = (edge: 'begin' | 'end', what: string) => `<|plamo:${edge}_${what}:plamo|>`;

export const requestsOpen = tag('begin', 'tool_requests');
export const requestsClose = tag('end', 'tool_requests');
export const requestOpen = tag('begin', 'tool_request');
export const requestClose = tag('end', 'tool_request');
export const nameOpen = tag('begin', 'tool_name');
export const nameClose = tag('end', 'tool_name');
export const argumentsOpen = tag('begin', 'tool_arguments');
export const argumentsClose = tag('end', 'tool_arguments');
