/** The key's tool policy applied to a request before any lane reads it. */
import type { ChatRequest } from '../core/chat-request.js';
import { gatewayError } from '../core/gateway-error.js';
import type { Warning } from '../core/warning.js';
import type { AccessPolicy } from './access-policy.js';

/** Takes the tools the key may not use out of the request (with a warning); a tool_choice naming one is refused. */
export function restrictTools(request: ChatRequest, access: AccessPolicy, warnings: Warning[]): void {
  if (!request.tools?.length) return;
  const choice = request.toolChoice;
  if (choice?.type === 'tool' && !access.allowsTool(choice.name)) {
    throw gatewayError('tool_not_allowed', {
      param: 'tool_choice',
      message: `The API key '${access.name}' may not use tool '${choice.name}'.`,
    });
  }
  const filtered = access.filterTools(request.tools);
  request.tools = filtered.tools.length ? filtered.tools : undefined;
  if (!request.tools && choice?.type === 'required') request.toolChoice = undefined;
  if (filtered.warning) warnings.push(filtered.warning);
}
