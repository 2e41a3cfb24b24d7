/** One Responses request made ready to run: parsed, with its assembler factory and what to keep afterwards. HTTP and WebSocket share it. */
import type { ChatRun } from '../../src/pipeline/chat-run.js';
import { randomHex } from '../../src/core/random-id.js';
import type { BodyValidators } from '../shared/body-validator.js';
import type { RouteToolCaches } from '../shared/memoise-known-list.js';
import { echoedModel } from '../shared/run-generation.js';
import { parseResponsesRequest, type ParsedResponsesRequest, type StoredResponseLookup } from './parse-responses-request.js';
import { ResponseAssembler } from './response-assembler.js';
import type { StoredResponse } from './response-store.js';
import type { WireResponse } from './responses-wire.js';

export type ResponseTurn = {
  parsed: ParsedResponsesRequest;
  /** A fresh assembler, once the run says which model answers. */
  assemblerFor(run: ChatRun | undefined): ResponseAssembler;
  /** What a store keeps of the finished response: the response and the conversation it came from. */
  stored(response: WireResponse): StoredResponse;
};

function responseId(): string {
  return `resp_${randomHex(32)}`;
}

export async function prepareResponseTurn(
  body: unknown,
  lookup: StoredResponseLookup,
  providerName: string | undefined,
  validators: BodyValidators,
  caches: RouteToolCaches,
): Promise<ResponseTurn> {
  const parsed = await parseResponsesRequest(body, lookup, validators, caches);
  if (providerName !== undefined) parsed.input.provider = providerName;
  // Route warnings travel through the pipeline into diagnostics; the assembler keeps them for failures.
  if (parsed.warnings.length) parsed.input.warnings = parsed.warnings;
  return {
    parsed,
    assemblerFor: (run) =>
      new ResponseAssembler(
        {
          id: responseId(),
          createdAt: Math.floor(Date.now() / 1000),
          // Without a run (a WebSocket warm-up generates nothing), the model as the client wrote it.
          model: run ? echoedModel(parsed.input, run) : parsed.input.model,
          echo: parsed.echo,
        },
        { toolKinds: parsed.toolKinds, warnings: parsed.warnings },
      ),
    stored: (response) => ({ response, input: parsed.conversation }),
  };
}
