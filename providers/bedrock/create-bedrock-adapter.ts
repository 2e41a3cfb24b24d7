/**
 * The `bedrock` provider adapter: Converse and ConverseStream through the AWS SDK's Bedrock Runtime
 * client, which signs each request with Signature V4 and decodes the event-stream framing. Models are
 * addressed by model id, inference profile id or ARN (`bedrock/anthropic.claude-sonnet-4-5-20250929-v1:0`,
 * `bedrock/us.anthropic.claude-…`, `bedrock/arn:aws:bedrock:…`); the SDK puts the id in the path.
 */
import type { BedrockRuntimeClient, BedrockRuntimeClientConfig, ConverseStreamOutput } from '@aws-sdk/client-bedrock-runtime';
import type { NodeHttpHandler } from '@smithy/node-http-handler';
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { ChatRequest } from '../../src/core/chat-request.js';
import { countUpstreamSend } from '../../src/core/cancellation.js';
import type { Warning } from '../../src/core/warning.js';
import { replayEvents, type StreamEvent } from '../../src/core/stream-event.js';
import type { ProviderAdapter, ProviderContext } from '../../src/core/provider-adapter.js';
import { isGrammarTooComplex } from '../../src/core/grammar-too-complex.js';
import { refusalMemories, type RefusalMemories } from '../../src/core/refusal-memory.js';
import { hasStrictTools, StrictToolsTooComplex } from '../anthropic/strict-tools-key.js';
import { betaList, bedrockBetaPlatform, PlatformBetas } from '../anthropic/claude-platform-betas.js';
import { findHeader } from '../anthropic/build-anthropic-headers.js';
import { isBedrockClaude } from './converse-claude-thinking.js';
import { withClaudeBetas } from './converse-claude-betas.js';
import { buildConverseRequest } from './build-converse-request.js';
import { mapBedrockError } from './map-bedrock-error.js';
import { streamedConverseEvents, wholeConverseEvents } from './read-converse-reply.js';

type Sdk = typeof import('@aws-sdk/client-bedrock-runtime');

function clientConfig(
  config: ProviderConfig,
  settings: NonNullable<ProviderConfig['bedrock']>,
  Handler: typeof NodeHttpHandler,
): BedrockRuntimeClientConfig {
  const client: BedrockRuntimeClientConfig = {
    region: settings.region,
    endpoint: config.baseUrl,
    // The gateway's own retries and fallbacks decide (provider `retries`): the SDK does not retry behind them.
    maxAttempts: 1,
    // HTTP/1.1 (Converse and ConverseStream need no HTTP/2): the client's default HTTP/2 handler would keep one
    // session per endpoint that private endpoints and proxies in between often do not speak.
    requestHandler: new Handler({ connectionTimeout: config.timeouts.connectMs, requestTimeout: config.timeouts.bodyMs }),
  };
  if (settings.accessKeyId && settings.secretAccessKey)
    client.credentials = {
      accessKeyId: settings.accessKeyId,
      secretAccessKey: settings.secretAccessKey,
      ...(settings.sessionToken ? { sessionToken: settings.sessionToken } : {}),
    };
  else if (settings.profile) client.profile = settings.profile;
  return client;
}

/** Bedrock's 400 for a tool_choice the model cannot honour: "This model doesn't support the toolConfig.toolChoice.any field. …". */
function refusesToolChoice(error: unknown): boolean {
  const aws = error as { name?: string; message?: string };
  return aws.name === 'ValidationException' && /toolConfig\.toolChoice/.test(aws.message ?? '');
}

/** A ValidationException, whose words say whether it refused a beta ("The model returned the following errors: invalid beta flag"). */
function isValidationException(error: unknown): error is { message: string } {
  const aws = error as { name?: string; message?: string };
  return aws.name === 'ValidationException' && typeof aws.message === 'string';
}

/**
 * `refusals`: where the betas Bedrock refused for a model are remembered (claude-platform-betas.ts), and the sets
 * of strict tools whose grammar it gave up on.
 */
export function createBedrockAdapter(config: ProviderConfig, refusals: RefusalMemories = refusalMemories()): ProviderAdapter {
  const betas = new PlatformBetas(bedrockBetaPlatform, refusals);
  const strictTooComplex = new StrictToolsTooComplex(refusals);
  const grammarReason = `Bedrock provider '${config.name}' could not compile these strict tools for this model (too complex)`;
  const settings = config.bedrock;
  if (!settings) throw new Error(`provider ${config.name} has no bedrock settings`);
  // The AWS SDK loads with the first request: it is megabytes of heap and start-up time that a gateway
  // without a Bedrock provider never pays (providers/index.ts imports every kind).
  let loaded: Promise<{ sdk: Sdk; client: BedrockRuntimeClient }> | undefined;
  const load = () =>
    (loaded ??= Promise.all([import('@aws-sdk/client-bedrock-runtime'), import('@smithy/node-http-handler')]).then(([sdk, http]) => ({
      sdk,
      client: new sdk.BedrockRuntimeClient(clientConfig(config, settings, http.NodeHttpHandler)),
    })));
  let responses = 0;

  async function stream(request: ChatRequest, context: ProviderContext): Promise<AsyncIterable<StreamEvent>> {
    const remembered = strictTooComplex.has(request);
    const { input, warnings } = buildConverseRequest(request, remembered ? { strictRefused: grammarReason } : {});
    const start = { id: `bedrock-${context.requestId}-${responses++}`, model: request.model.model, warnings };
    // The client's betas (the Messages route forwards `anthropic-beta`) go in the body for Claude, as Bedrock takes them.
    const clientBetas = betaList(findHeader(request.forwardHeaders, 'anthropic-beta'));
    let sentBetas = withClaudeBetas(input, clientBetas, {
      claude: isBedrockClaude(request.model.model),
      betas,
      warnings,
    });
    // The SDK takes an AbortSignal: the request's cancellation (the client left, a shutdown) aborts it.
    const controller = new AbortController();
    context.cancellation.once('abort', () => controller.abort());
    const abortSignal = controller.signal;
    const send = async (): Promise<AsyncIterable<StreamEvent>> => {
      const { sdk, client } = await load();
      const { ConverseCommand, ConverseStreamCommand } = sdk;
      // The SDK writes the request itself: handed to it (credentials and SDK loaded) counts as sent.
      countUpstreamSend(context.cancellation);
      if (context.wholeReply === true) {
        const output = await client.send(new ConverseCommand(input), { abortSignal });
        return replayEvents(wholeConverseEvents(output, start));
      }
      const output = await client.send(new ConverseStreamCommand(input), { abortSignal });
      if (!output.stream) return replayEvents(wholeConverseEvents({}, start));
      return readStream(output.stream, start, context);
    };
    /** The request again without the betas Bedrock refused, when it refused any of those sent. */
    const withoutRefusedBetas = async (error: unknown): Promise<AsyncIterable<StreamEvent>> => {
      if (!isValidationException(error) || !betas.learn(request.model.model, error.message, sentBetas)) throw error;
      context.log.warn(
        { provider: config.name, model: request.model.model, reason: error.message },
        'the upstream refused betas for this model: they are left out until the refusal is forgotten (server.refusalMemoryMs)',
      );
      sentBetas = withClaudeBetas(input, clientBetas, { claude: true, betas, warnings });
      return send();
    };
    /**
     * The request again with its tools without strict, when Bedrock's grammar compiler gave up on a grammar that
     * holds strict tools and no response format (the pipeline puts a format it gave up on into the prompt first),
     * as Claude's own API does (providers/anthropic/create-anthropic-adapter.ts); the set is remembered.
     */
    const withoutStrict = async (failure: Error): Promise<AsyncIterable<StreamEvent>> => {
      if (remembered || !hasStrictTools(request) || input.outputConfig || !isGrammarTooComplex(failure)) throw failure;
      if (strictTooComplex.remember(request))
        context.log.warn(
          { provider: config.name, model: request.model.model, reason: failure.message },
          "the upstream's grammar compiler gave up on these strict tools: they go without strict for this model until the refusal is forgotten (server.refusalMemoryMs)",
        );
      const rebuilt = buildConverseRequest(request, { strictRefused: `${grammarReason}: ${failure.message}` });
      if (rebuilt.input.toolConfig && input.toolConfig) input.toolConfig.tools = rebuilt.input.toolConfig.tools;
      // The tools' warnings are now those of tools without strict; the rest were given already.
      const toolWarnings = (list: Warning[]) => list.filter((warning) => warning.code === 'strict-schema-not-guaranteed');
      for (const stale of toolWarnings(warnings)) warnings.splice(warnings.indexOf(stale), 1);
      warnings.push(...toolWarnings(rebuilt.warnings));
      return send().catch((error: unknown) => Promise.reject(mapBedrockError(error, config.name, context.cancellation)));
    };
    try {
      try {
        return await send().catch(withoutRefusedBetas);
      } catch (error) {
        if (!refusesToolChoice(error) || !input.toolConfig?.toolChoice) throw error;
        // Only some model families take `any` or a named tool (Claude, Mistral Large, Nova); the others say
        // so in a 400. The tools are still offered, with the model's own choice, and the client is told.
        delete input.toolConfig.toolChoice;
        warnings.push({
          code: 'unsupported-parameter',
          message: `Bedrock model '${request.model.model}' takes no tool_choice: the tools were offered with auto.`,
        });
        return await send();
      }
    } catch (error) {
      return withoutStrict(mapBedrockError(error, config.name, context.cancellation));
    }
  }

  /** Errors after the first byte become the stream's error event, with their meaning kept. */
  async function* readStream(
    events: AsyncIterable<ConverseStreamOutput>,
    start: Parameters<typeof streamedConverseEvents>[1],
    context: ProviderContext,
  ): AsyncIterable<StreamEvent> {
    try {
      yield* streamedConverseEvents(events, start, config.name);
    } catch (error) {
      yield { type: 'error', error: mapBedrockError(error, config.name, context.cancellation) };
    }
  }

  return {
    stream,
    close: async () => {
      if (loaded) (await loaded).client.destroy();
    },
  };
}
