/** Picks a request's agent format for any route, with the `x-agent-format` response header that names it and why. */
import type { IncomingHttpHeaders } from 'node:http';
import { agentFormatHeader, type AgentFormatSelection } from '../../src/pipeline/agent-format/agent-format.js';
import type { ChatPipeline } from '../../src/pipeline/chat-pipeline.js';

export type AgentFormatFields = { field?: unknown; toolCallTags?: unknown };

export type RouteAgentFormat = { selection: AgentFormatSelection; header: string };

/** The extension fields as sent in a body whose schema does not list them (Responses, Messages). */
export function agentFormatFieldsOf(body: unknown): AgentFormatFields {
  if (typeof body !== 'object' || body === null) return {};
  const record = body as Record<string, unknown>;
  return { field: record.agent_format, toolCallTags: record.tool_call_tags };
}

export function selectAgentFormat(pipeline: ChatPipeline, headers: IncomingHttpHeaders, fields: AgentFormatFields): RouteAgentFormat {
  const selection = pipeline.selectAgentFormat({ field: fields.field, toolCallTags: fields.toolCallTags, headers });
  return { selection, header: agentFormatHeader(selection) };
}
