/**
 * The `scripted` provider kind: a model that replays turns from a script file, or, with no script, a demo
 * model that calls the first offered tool in its family's own syntax. No upstream: for trying the gateway
 * and testing agent integrations without a model server or tokens.
 */
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { ChatRequest } from '../../src/core/chat-request.js';
import { gatewayError } from '../../src/core/gateway-error.js';
import type { ModelInfo, ProviderAdapter } from '../../src/core/provider-adapter.js';
import { replayEvents, type StreamEvent } from '../../src/core/stream-event.js';
import { scriptedEvents, type RenderFamilyCall } from './scripted-events.js';
import { chooseTurn, demoModels } from './scripted-reply.js';
import { loadScript } from './scripted-script.js';

export type { RenderFamilyCall } from './scripted-events.js';

/** A stream yields one event per step, as an upstream's chunks arrive one by one. */
async function* oneByOne(events: readonly StreamEvent[]): AsyncGenerator<StreamEvent> {
  for (const event of events) yield event;
}

export function createScriptedAdapter(config: ProviderConfig, renderCall: RenderFamilyCall): ProviderAdapter {
  const script = config.script === undefined ? undefined : loadScript(config.script, config.name);
  const models: readonly string[] = script?.models ?? (script ? Object.keys(config.models) : demoModels);
  return {
    async stream(request: ChatRequest, context) {
      const turn = chooseTurn(script, request);
      if (turn.error) {
        throw gatewayError('scripted_error', {
          status: turn.error.status,
          type: turn.error.status >= 500 ? 'upstream_error' : 'invalid_request_error',
          message: turn.error.message,
        });
      }
      const events = scriptedEvents(turn, request, renderCall);
      return context.wholeReply ? replayEvents(events) : oneByOne(events);
    },
    async listModels(): Promise<ModelInfo[]> {
      return models.map((id) => ({ id, ownedBy: config.name }));
    },
  };
}
