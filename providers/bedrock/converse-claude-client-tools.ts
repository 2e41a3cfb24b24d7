/**
 * Anthropic's own client tools (bash, text editor, computer, memory: `ToolDefinition.anthropicTool`) for Claude
 * on Bedrock. Converse's `toolConfig` holds only custom tools with a JSON schema, so Claude would get them
 * as custom tools it was not trained on; AWS's computer use guide sends them instead in Claude's own form
 * through `additionalModelRequestFields.tools`, beside the beta in `anthropic_beta` and the custom tools in
 * `toolConfig` (https://docs.aws.amazon.com/bedrock/latest/userguide/computer-use.html; the fields are those
 * of Claude's Messages body on Bedrock: model-parameters-anthropic-claude-messages-request-response.html).
 * Claude's calls to them come back as ordinary `toolUse` blocks. Converse's `toolChoice` names only `toolConfig`'s
 * tools, so beside these the client's choice goes in Claude's form too, `additionalModelRequestFields.tool_choice`
 * (build-converse-request.ts), as Vercel's AI SDK does (packages/amazon-bedrock/src/bedrock-prepare-tools.ts) and
 * stdapi.ai (stdapi/models/chat/_anthropic_claude.py, `_forward_tool_choice_to_additional_request_fields`).
 */
import type { ToolDefinition } from '../../src/core/tool-definition.js';

export type ClaudeClientTool = { type: string; name: string; [field: string]: unknown };

/** The tools that go in Claude's own form, and those left for `toolConfig`. */
export function splitClaudeClientTools(tools: readonly ToolDefinition[]): {
  clientTools: ClaudeClientTool[];
  customTools: ToolDefinition[];
} {
  const clientTools: ClaudeClientTool[] = [];
  const customTools: ToolDefinition[] = [];
  for (const tool of tools) {
    if (tool.anthropicTool) clientTools.push({ ...tool.anthropicTool, name: tool.name });
    else customTools.push(tool);
  }
  return { clientTools, customTools };
}
