/** Cohere Command R7B / Command A special tokens of a chatbot turn: thinking, actions, response, tool results. */
// @see https://github.com/ggml-org/llama.cpp/blob/master/models/templates/CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja

export const startThinking = '<|START_THINKING|>';
export const endThinking = '<|END_THINKING|>';
export const startAction = '<|START_ACTION|>';
export const endAction = '<|END_ACTION|>';
export const startResponse = '<|START_RESPONSE|>';
export const endResponse = '<|END_RESPONSE|>';
export const startToolResult = '<|START_TOOL_RESULT|>';
export const endToolResult = '<|END_TOOL_RESULT|>';
export const endOfTurn = '<|END_OF_TURN_TOKEN|>';
/** Cohere2 MoE ("North Code") wraps its answer in these instead of the response tokens. */
export const startText = '<|START_TEXT|>';
export const endText = '<|END_TEXT|>';
