/**
 * A fake Amazon Bedrock Runtime on 127.0.0.1, as its Converse API answers
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html and
 * API_runtime_ConverseStream.html): `POST /model/{modelId}/converse` (JSON) and `/converse-stream` (the
 * `application/vnd.amazon.eventstream` binary framing, encoded with Smithy's codec, so the SDK's decoder
 * reads it as it reads AWS's). Every request's Signature V4 is recomputed with the test credentials
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html): a wrong
 * key gets 403 `UnrecognizedClientException` (the header `x-amzn-errortype` names it, as AWS does).
 */
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import type http from 'node:http';
import { EventStreamCodec } from '@smithy/core/event-streams';
import { SignatureV4 } from '@smithy/signature-v4';
import { anthropicToolRefusal } from './anthropic-tool-definitions.js';
import { grammarSchemaRefusal } from './grammar-schema-refusal.js';
import { startLoopbackServer, type RecordedRequest } from './loopback-server.js';

/**
 * Claude's reasoning before the text, as Converse carries it (API_runtime_ReasoningContentBlock.html): signed text,
 * or `redactedContent`, the encrypted reasoning (a blob: base64 here as on the JSON wire, bytes in the SDK).
 */
export type FakeBedrockReasoning = { text: string; signature: string } | { redactedContent: string };

/** What the fake answers a model: reasoning, text, tool uses, or an AWS error. */
export type FakeBedrockReply =
  | {
      type: 'message';
      reasoning?: FakeBedrockReasoning[];
      text?: string;
      toolUses?: { name: string; input: Record<string, unknown> }[];
      stopReason?: string;
      usage?: { inputTokens: number; outputTokens: number };
      /** ConverseStream only: after the text, an in-band exception ends the stream (an event-stream message of type `exception`). */
      streamException?: { type: 'throttlingException' | 'serviceUnavailableException' | 'modelStreamErrorException'; message: string };
    }
  | { type: 'error'; status: number; errorType: string; message: string };

export type FakeBedrock = {
  url: string;
  requests: RecordedRequest[];
  enqueue(...replies: FakeBedrockReply[]): void;
  /** Answers every request the queue does not (a scripted model); the default text when absent. */
  respondWith(responder: ((request: RecordedRequest) => FakeBedrockReply) | undefined): void;
  close(): Promise<void>;
};

/** SHA-256 and HMAC-SHA-256 from node:crypto, in the shape Smithy's signer takes. */
type SourceData = string | ArrayBuffer | ArrayBufferView;

function bytesOf(data: SourceData): string | Buffer {
  if (typeof data === 'string') return data;
  return ArrayBuffer.isView(data) ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : Buffer.from(data);
}

class NodeSha256 {
  private hash: Hash | Hmac;
  private readonly secret: string | Buffer | undefined;
  constructor(secret?: SourceData) {
    this.secret = secret === undefined ? undefined : bytesOf(secret);
    this.hash = this.secret === undefined ? createHash('sha256') : createHmac('sha256', this.secret);
  }
  update(data: SourceData): void {
    this.hash.update(bytesOf(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset(): void {
    this.hash = this.secret === undefined ? createHash('sha256') : createHmac('sha256', this.secret);
  }
}

const codec = new EventStreamCodec(
  (bytes) => Buffer.from(bytes).toString('utf8'),
  (text) => new Uint8Array(Buffer.from(text, 'utf8')),
);

/** One event-stream message: its kind in the headers, its JSON payload as the body. */
function encoded(kind: Record<string, string>, payload: unknown): Uint8Array {
  const headers = Object.fromEntries(
    Object.entries({ ...kind, ':content-type': 'application/json' }).map(([name, value]) => [name, { type: 'string' as const, value }]),
  );
  return codec.encode({ headers, body: new Uint8Array(Buffer.from(JSON.stringify(payload), 'utf8')) });
}

function frame(eventType: string, payload: unknown): Uint8Array {
  return encoded({ ':event-type': eventType, ':message-type': 'event' }, payload);
}

/** An in-band exception, as AWS frames one: `:message-type` exception, its name in `:exception-type`. */
function exceptionFrame(exceptionType: string, message: string): Uint8Array {
  return encoded({ ':exception-type': exceptionType, ':message-type': 'exception' }, { message });
}

type ConverseDocument = { name?: unknown; format?: unknown };
type ConverseBlock = {
  text?: string;
  reasoningContent?: { reasoningText?: { text?: string; signature?: string }; redactedContent?: unknown };
  document?: ConverseDocument;
  toolUse?: { toolUseId?: string };
  toolResult?: { toolUseId?: string; content?: { text?: string; image?: unknown; document?: ConverseDocument }[] };
};
type ConverseBody = {
  messages?: { role: string; content?: ConverseBlock[] }[];
  toolConfig?: {
    tools?: { toolSpec?: { name?: string; strict?: unknown; inputSchema?: { json?: { type?: unknown } } } }[];
    toolChoice?: Record<string, unknown>;
  };
  outputConfig?: { textFormat?: { type?: string; structure?: { jsonSchema?: { schema?: unknown } } } };
  additionalModelRequestFields?: {
    thinking?: { type?: string };
    anthropic_beta?: unknown;
    tools?: unknown;
    tool_choice?: { type?: unknown };
  };
};

/**
 * The betas Bedrock takes for Claude, in the body's `anthropic_beta` (the list AWS documents, as gathered in
 * BerriAI/litellm#19875, with `computer-use-2025-11-24` for `computer_20251124`, in stdapi-ai/stdapi.ai's list of
 * the flags Bedrock takes, stdapi/config.py `_ANTHROPIC_BETA_BEDROCK_FLAGS`); another is refused before the model runs, naming none: "The model returned the
 * following errors: invalid beta flag" (ConverseStream, quoted in anthropics/claude-code#26570).
 */
const bedrockClaudeBetas: readonly string[] = [
  'computer-use-2024-10-22',
  'computer-use-2025-01-24',
  'computer-use-2025-11-24',
  'token-efficient-tools-2025-02-19',
  'interleaved-thinking-2025-05-14',
  'output-128k-2025-02-19',
  'dev-full-thinking-2025-05-14',
  'context-1m-2025-08-07',
  'context-management-2025-06-27',
  'effort-2025-11-24',
  'tool-search-tool-2025-10-19',
  'tool-examples-2025-10-29',
];

function betaRefusal(body: ConverseBody): string | undefined {
  const betas = body.additionalModelRequestFields?.anthropic_beta;
  if (betas === undefined) return undefined;
  if (!Array.isArray(betas) || betas.some((beta) => !bedrockClaudeBetas.includes(String(beta))))
    return 'The model returned the following errors: invalid beta flag';
  return undefined;
}

/**
 * Anthropic's own tools in Claude's form (`additionalModelRequestFields.tools`, as AWS's computer use guide sends
 * them: https://docs.aws.amazon.com/bedrock/latest/userguide/computer-use.html) reach Claude's own validation, as
 * Claude's API checks them (anthropic-tool-definitions.ts) with the betas of `anthropic_beta`, its words wrapped
 * as Bedrock wraps Claude's ("The model returned the following errors: …", BerriAI/litellm#27846); Claude
 * refuses two tools of one name, these and toolConfig's together ("tools: Tool names must be unique.").
 */
function claudeToolsRefusal(modelId: string, body: ConverseBody): string | undefined {
  const tools = body.additionalModelRequestFields?.tools;
  if (tools === undefined || !modelId.includes('anthropic.')) return undefined;
  const betas = body.additionalModelRequestFields?.anthropic_beta;
  const refused = anthropicToolRefusal(tools, Array.isArray(betas) ? betas.map(String) : []);
  if (refused) return `The model returned the following errors: ${refused}`;
  const names = [
    ...(Array.isArray(tools) ? (tools as { name?: unknown }[]).map((tool) => String(tool.name)) : []),
    ...(body.toolConfig?.tools ?? []).flatMap((tool) => (tool.toolSpec?.name === undefined ? [] : [tool.toolSpec.name])),
  ];
  if (new Set(names).size !== names.length) return 'The model returned the following errors: tools: Tool names must be unique.';
  const choice = body.additionalModelRequestFields?.tool_choice;
  if (choice !== undefined && !['auto', 'any', 'tool', 'none'].includes(String(choice.type)))
    return `The model returned the following errors: tool_choice: Input tag '${String(choice.type)}' found using 'type' does not match any of the expected tags: 'auto', 'any', 'tool', 'none'`;
  return undefined;
}

/**
 * What Bedrock refuses before any model runs, with its messages (each seen in the wild: the Converse
 * reference, and bug reports of Strands, Dify, pentagi, browser-use quoting them): blank text and empty
 * turns; tool blocks without a toolConfig; a tool schema that is not an object; a toolChoice the model family
 * cannot take; and for Claude a user turn after a tool use that does not begin with its results.
 */
function refusal(modelId: string, body: ConverseBody, modelsWithoutToolChoice: readonly string[]): string | undefined {
  const messages = body.messages ?? [];
  const blank = blankText(messages);
  if (blank) return blank;
  const badId = badToolUseId(messages);
  if (badId) return badId;
  const badDocument = documentRefusal(messages);
  if (badDocument) return badDocument;
  const blocks = messages.flatMap((message) => message.content ?? []);
  if (!body.toolConfig && blocks.some((block) => block.toolUse || block.toolResult))
    return 'The toolConfig field must be defined when using toolUse and toolResult content blocks.';
  // A `cachePoint` entry among the tools has no spec to check (prompt-caching.html).
  const badSchema = (body.toolConfig?.tools ?? []).findIndex(
    (tool) => tool.toolSpec !== undefined && tool.toolSpec.inputSchema?.json?.type !== 'object',
  );
  if (body.toolConfig && badSchema !== -1)
    return `The value at toolConfig.tools.${badSchema}.toolSpec.inputSchema.json.type must be one of the following: object.`;
  const jsonSchema = body.outputConfig?.textFormat?.structure?.jsonSchema;
  // JsonSchemaDefinition.schema is a String (API_runtime_JsonSchemaDefinition.html): the schema as JSON text.
  if (jsonSchema && typeof jsonSchema.schema !== 'string')
    return "1 validation error detected: Value at 'outputConfig.textFormat.structure.jsonSchema.schema' failed to satisfy constraint: Member must be a string";
  // Bedrock checks the schema against its compiler's subset before any model runs (structured-output.html:
  // "If the schema contains unsupported features, Amazon Bedrock returns a 400 error immediately"), in Claude's words.
  const schemaRefused = jsonSchema
    ? grammarSchemaRefusal(JSON.parse(jsonSchema.schema as string), 'output_config.format.schema')
    : undefined;
  if (schemaRefused) return schemaRefused;
  // Claude Opus 4.7 and the Claude 5 models think adaptively only (claude-messages-adaptive-thinking.html: the
  // budget form "will return a 400 error"); Claude's own validation errors come back wrapped as "The model
  // returned the following errors: …" (quoted in BerriAI/litellm#27846).
  if (body.additionalModelRequestFields?.thinking?.type === 'enabled' && /claude-(opus-4-7|sonnet-5|opus-5)/.test(modelId))
    return 'The model returned the following errors: "thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.';
  // An image in a tool result: "only supported by Amazon Nova and Anthropic Claude 3 and 4 models"
  // (API_runtime_ToolResultContentBlock.html); another model refuses it in these words, quoted with the
  // measurements in anomalyco/opencode#49443 and can1357/oh-my-pi#11681.
  if (!/anthropic\.|amazon\.nova-/.test(modelId) && blocks.some((block) => block.toolResult?.content?.some((part) => part.image)))
    return "This model doesn't support the image field for user messages. Remove image and try again.";
  const choice = Object.keys(body.toolConfig?.toolChoice ?? {})[0];
  // Claude refuses thinking with a choice that forces a tool, whichever form the choice came in (Converse's, or
  // Claude's own through the additional fields), in its words as Bedrock wraps them (can1357/oh-my-pi#341).
  const claudeChoice = body.additionalModelRequestFields?.tool_choice?.type;
  const thinking = body.additionalModelRequestFields?.thinking?.type;
  if (
    modelId.includes('anthropic.') &&
    (thinking === 'enabled' || thinking === 'adaptive') &&
    (choice === 'any' || choice === 'tool' || claudeChoice === 'any' || claudeChoice === 'tool')
  )
    return 'The model returned the following errors: Thinking may not be enabled when tool_choice forces tool use.';
  if ((choice === 'any' || choice === 'tool') && modelsWithoutToolChoice.includes(modelId))
    return `This model doesn't support the toolConfig.toolChoice.${choice} field. Remove toolConfig.toolChoice.${choice} and try again.`;
  const lastTurnRefused = modelId.includes('anthropic.') ? thinkingTurnRefusal(messages, thinking) : undefined;
  if (lastTurnRefused) return lastTurnRefused;
  // Claude verifies the signature of every thinking block it is given: without one, "thinking.signature: Field
  // required" (maximhq/bifrost#6942, measured on Converse; Nova and MiniMax take unsigned reasoning).
  if (modelId.includes('anthropic.'))
    for (const [position, message] of messages.entries())
      for (const [index, block] of (message.content ?? []).entries())
        if (block.reasoningContent?.reasoningText !== undefined && !block.reasoningContent.reasoningText.signature)
          return `The model returned the following errors: messages.${position}.content.${index}.thinking.signature: Field required`;
  if (modelId.includes('anthropic.')) {
    for (const [position, message] of messages.entries()) {
      const previous = messages[position - 1];
      const uses = previous?.role === 'assistant' ? (previous.content ?? []).filter((block) => block.toolUse).length : 0;
      if (uses === 0 || message.role !== 'user') continue;
      const leading = (message.content ?? []).slice(0, uses);
      if (!leading.every((block) => block.toolResult))
        return `messages.${position}: Did not find ${uses} \`tool_result\` block(s) at the beginning of this message. Messages following \`tool_use\` blocks must begin with a matching number of \`tool_result\` blocks.`;
    }
  }
  return undefined;
}

/**
 * Claude with thinking on refuses a last assistant turn with tool uses that does not begin with its reasoning (signed
 * text or redacted), in Claude's words as Bedrock wraps them (quoted from ConverseStream in anomalyco/opencode#3077;
 * https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-thinking-encryption.html: thinking blocks go
 * back when tools are used with extended thinking).
 */
function thinkingTurnRefusal(messages: NonNullable<ConverseBody['messages']>, thinking: string | undefined): string | undefined {
  if (thinking !== 'enabled' && thinking !== 'adaptive') return undefined;
  const position = messages.findLastIndex((message) => message.role === 'assistant');
  const content = messages[position]?.content ?? [];
  if (!content.some((block) => block.toolUse)) return undefined;
  const first = content[0];
  if (first?.reasoningContent?.reasoningText !== undefined || first?.reasoningContent?.redactedContent !== undefined) return undefined;
  const found = first?.toolUse ? 'tool_use' : first?.text !== undefined ? 'text' : 'unknown';
  return `The model returned the following errors: messages.${position}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${found}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`;
}

/**
 * Converse refuses a turn without blocks and a text block that is empty or only whitespace, a tool result's
 * too. Messages as AWS words them, quoted in continuedev/continue#9767, OpenHands/OpenHands#5339 (top-level
 * blocks), earendil-works/pi#3443 (an empty turn) and NousResearch/hermes-agent#55092 (a tool result's text).
 */
function blankText(messages: NonNullable<ConverseBody['messages']>): string | undefined {
  for (const [position, message] of messages.entries()) {
    if (!message.content?.length)
      return `The content field in the Message object at messages.${position} is empty. Add a ContentBlock object to the content field and try again.`;
    for (const [index, block] of message.content.entries()) {
      if (block.text !== undefined && block.text.trim() === '')
        return `The text field in the ContentBlock object at messages.${position}.content.${index} is blank. Add text to the text field, and try again.`;
      if (block.toolResult?.content?.some((part) => part.text !== undefined && part.text.trim() === ''))
        return 'messages: text content blocks must be non-empty';
    }
  }
  return undefined;
}

/** The formats a DocumentBlock takes (API_runtime_DocumentBlock.html, `format`). */
const documentFormats = ['pdf', 'csv', 'doc', 'docx', 'xls', 'xlsx', 'html', 'txt', 'md'];

/**
 * A document, in a turn or in a tool result, needs a format Converse knows and a name of "alphanumeric characters,
 * whitespace characters (no more than one in a row), hyphens, parentheses, square brackets" (API_runtime_DocumentBlock.html),
 * unique in the request, and five at most; a turn with a document needs a text block beside it. AWS's words: the
 * name rule's as quoted in simonw/llm-bedrock#8, the duplicate's as quoted in maximhq/bifrost#7003, the limit's in
 * aws-samples/generative-ai-use-cases#1685, the text block's in BerriAI/litellm#36499 (a Claude Code PDF on Bedrock;
 * checked for a turn's own documents, as the fixes quoting it do, not a tool result's); a format outside the enum
 * gets AWS's validation form (as badToolUseId's).
 */
function documentRefusal(messages: NonNullable<ConverseBody['messages']>): string | undefined {
  const names = new Set<string>();
  for (const [position, message] of messages.entries()) {
    const documents = (message.content ?? []).flatMap((block) => [
      ...(block.document ? [block.document] : []),
      ...(block.toolResult?.content ?? []).flatMap((part) => (part.document ? [part.document] : [])),
    ]);
    const content = message.content ?? [];
    if (content.some((block) => block.document) && !content.some((block) => block.text !== undefined && block.text.trim() !== ''))
      return 'A text block must be included when using documents. Add a text block and retry your request.';
    for (const document of documents) {
      if (!documentFormats.includes(String(document.format)))
        return `1 validation error detected: Value '${String(document.format)}' at 'messages.${position + 1}.member.content.document.format' failed to satisfy constraint: Member must satisfy enum value set: [${documentFormats.join(', ')}]`;
      const name = String(document.name ?? '');
      if (!/^[a-zA-Z0-9\-()[\]]+( [a-zA-Z0-9\-()[\]]+)*$/.test(name) || name.length > 200)
        return "The document file name can only contain alphanumeric characters, whitespace characters, hyphens, parentheses, and square brackets. The name can't contain more than one consecutive whitespace character. Check that the file name conforms to these restrictions and retry your request.";
      if (names.has(name)) return "Messages can't contain duplicate document names. Rename the document and retry your request.";
      names.add(name);
    }
  }
  if (names.size > 5) return "You can't include more than 5 documents in a request.";
  return undefined;
}

/**
 * A `toolUseId` is 1 to 64 characters of `[a-zA-Z0-9_-]` (API_runtime_ToolUseBlock.html and
 * API_runtime_ToolResultBlock.html, Length Constraints and Pattern), refused in AWS's validation wording.
 */
function badToolUseId(messages: NonNullable<ConverseBody['messages']>): string | undefined {
  for (const [position, message] of messages.entries()) {
    for (const [index, block] of (message.content ?? []).entries()) {
      const [member, id] = block.toolUse ? ['toolUse', block.toolUse.toolUseId] : ['toolResult', block.toolResult?.toolUseId];
      if (id === undefined || /^[a-zA-Z0-9_-]{1,64}$/.test(id)) continue;
      return `1 validation error detected: Value '${id}' at 'messages.${position + 1}.member.content.${index + 1}.member.${member}.toolUseId' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+`;
    }
  }
  return undefined;
}

/**
 * An AWS error as Bedrock Runtime sends one: the exception's name in `x-amzn-errortype` with its Coral
 * namespace after a colon (`ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/`, as
 * the raw response quoted in fumito-ito/AnthropicSwiftSDK#19 shows), and a body of only `{"message": …}`.
 */
function awsError(response: http.ServerResponse, status: number, errorType: string, message: string): void {
  const namespace = errorType === 'UnrecognizedClientException' ? 'com.amazon.coral.service' : 'com.amazon.bedrock';
  response
    .writeHead(status, {
      'content-type': 'application/json',
      'x-amzn-errortype': `${errorType}:http://internal.amazon.com/coral/${namespace}/`,
    })
    .end(JSON.stringify({ message }));
}

async function signatureMatches(
  request: RecordedRequest,
  credentials: { accessKeyId: string; secretAccessKey: string },
  region: string,
  rawBody: string,
): Promise<boolean> {
  const authorization = String(request.headers.authorization ?? '');
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/\d{8}\/([^/]+)\/bedrock\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (!match || match[1] !== credentials.accessKeyId || match[2] !== region) return false;
  const signedHeaders = (match[3] as string).split(';');
  const headers: Record<string, string> = {};
  for (const name of signedHeaders) headers[name] = String(request.headers[name] ?? '');
  const [path, query] = request.path.split('?') as [string, string | undefined];
  const amzDate = String(request.headers['x-amz-date']);
  const signingDate = new Date(
    `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
  );
  const signer = new SignatureV4({ service: 'bedrock', region, credentials, sha256: NodeSha256 });
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: 'http:',
      hostname: headers.host?.split(':')[0] ?? '127.0.0.1',
      path,
      query: Object.fromEntries(new URLSearchParams(query ?? '')),
      headers,
      body: rawBody,
    },
    { signingDate },
  );
  return String(signed.headers.authorization).endsWith(`Signature=${match[4] as string}`);
}

/** The Claude models whose Converse route takes `toolSpec.strict`: 4.5 and 4.6 (structured-output.html). */
const claudeWithStrictTools = /claude-(haiku-4-5|sonnet-4-5|sonnet-4-6|opus-4-5|opus-4-6)/;

/**
 * A strict tool Converse refuses. Claude models outside 4.5 and 4.6 refuse the field itself, "The model
 * returned the following errors: tools.0.custom.strict: Extra inputs are not permitted" (Opus 4.7 and 4.8, Sonnet
 * 4 and 5, reproduced in BerriAI/litellm#31582, #32455, #33196); the others refuse a schema outside the
 * grammar subset, "The model returned the following errors: tools.1.custom: For 'array' type, property
 * 'maxItems' is not supported" (BerriAI/litellm#39115). No real text was found for a non-Claude model without
 * structured outputs: the fake answers in the words Bedrock uses for its other unsupported fields.
 */
function strictToolRefusal(modelId: string, body: ConverseBody, modelsWithoutStructuredOutputs: readonly string[]): string | undefined {
  const specs = (body.toolConfig?.tools ?? []).flatMap((tool) => (tool.toolSpec ? [tool.toolSpec] : []));
  for (const [index, spec] of specs.entries()) {
    if (spec.strict !== true) continue;
    if (modelsWithoutStructuredOutputs.includes(modelId))
      return `This model doesn't support the toolConfig.tools.${index}.toolSpec.strict field. Remove it and try again.`;
    if (modelId.includes('anthropic.claude') && !claudeWithStrictTools.test(modelId))
      return `The model returned the following errors: tools.${index}.custom.strict: Extra inputs are not permitted`;
    const refused = grammarSchemaRefusal(spec.inputSchema?.json, `tools.${index}.custom`);
    if (refused) return `The model returned the following errors: ${refused}`;
  }
  return undefined;
}

/**
 * Where the fake's grammar compiler gives up: past this many characters of the strict tools' and the response
 * format's schemas (as JSON), Claude on Bedrock answers the ValidationException carrying Claude's own words, "The
 * model returned the following errors: The compiled grammar is too large, which would cause performance issues.
 * Simplify your tool schemas or reduce the number of strict tools." (anthropics/anthropic-sdk-python#1185 quotes
 * Claude's; Bedrock prefixes a model's errors so, as in strictToolRefusal). No size is documented: tests set one.
 */
function grammarLimitRefusal(body: ConverseBody, characters: number | undefined): string | undefined {
  if (characters === undefined) return undefined;
  const strictSchemas = (body.toolConfig?.tools ?? []).flatMap((tool) =>
    tool.toolSpec?.strict === true ? [tool.toolSpec.inputSchema?.json] : [],
  );
  const format = body.outputConfig?.textFormat?.structure?.jsonSchema?.schema;
  const size = [...strictSchemas.map((schema) => JSON.stringify(schema)), typeof format === 'string' ? format : ''].join('').length;
  if (size <= characters) return undefined;
  return 'The model returned the following errors: The compiled grammar is too large, which would cause performance issues. Simplify your tool schemas or reduce the number of strict tools.';
}

export async function startFakeBedrock(options: {
  /** Characters of compiled schemas past which the grammar is too large (grammarLimitRefusal); no limit when absent. */
  grammarLimit?: number;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Models without tool use: a request with a toolConfig gets Bedrock's ValidationException. */
  modelsWithoutTools?: string[];
  /** Models that take tools but no `any` or named tool_choice (Llama, most others: only Claude, Mistral Large and Nova do). */
  modelsWithoutToolChoice?: string[];
  /**
   * Models without structured outputs (Nova, Llama 4, Pixtral): a request with `outputConfig` gets the
   * ValidationException users quote ("This model doesn't support the outputConfig field. Remove outputConfig
   * and try again.", seen against Nova Lite, Nova Pro and Llama 4 in public bug reports and client code).
   */
  modelsWithoutStructuredOutputs?: string[];
}): Promise<FakeBedrock> {
  const queue: FakeBedrockReply[] = [];
  let responder: ((request: RecordedRequest) => FakeBedrockReply) | undefined;
  const server = await startLoopbackServer(async (request, response) => {
    const rawBody = request.body === undefined ? '' : JSON.stringify(request.body);
    if (!(await signatureMatches(request, options, options.region, rawBody)))
      return awsError(response, 403, 'UnrecognizedClientException', 'The security token included in the request is invalid.');
    const route = /^\/model\/([^/]+)\/(converse|converse-stream)$/.exec(request.path);
    if (!route) return awsError(response, 404, 'UnknownOperationException', 'Unknown operation');
    const body = (request.body ?? {}) as ConverseBody;
    const modelId = decodeURIComponent(route[1] as string);
    if (body.toolConfig && options.modelsWithoutTools?.includes(modelId))
      return awsError(response, 400, 'ValidationException', "This model doesn't support tool use.");
    if (body.outputConfig && options.modelsWithoutStructuredOutputs?.includes(modelId))
      return awsError(
        response,
        400,
        'ValidationException',
        "This model doesn't support the outputConfig field. Remove outputConfig and try again.",
      );
    const refused =
      betaRefusal(body) ??
      claudeToolsRefusal(modelId, body) ??
      refusal(modelId, body, options.modelsWithoutToolChoice ?? []) ??
      strictToolRefusal(modelId, body, options.modelsWithoutStructuredOutputs ?? []) ??
      grammarLimitRefusal(body, options.grammarLimit);
    if (refused) return awsError(response, 400, 'ValidationException', refused);
    const reply = queue.shift() ?? responder?.(request) ?? { type: 'message', text: 'Hello from Bedrock.' };
    if (reply.type === 'error') return awsError(response, reply.status, reply.errorType, reply.message);
    const toolUses = (reply.toolUses ?? []).map((use, index) => ({ toolUseId: `tooluse_${index}`, ...use }));
    const stopReason = reply.stopReason ?? (toolUses.length ? 'tool_use' : 'end_turn');
    const usage = { ...(reply.usage ?? { inputTokens: 12, outputTokens: 5 }), totalTokens: 0 };
    usage.totalTokens = usage.inputTokens + usage.outputTokens;
    if (route[2] === 'converse') {
      const reasoning = (reply.reasoning ?? []).map((block) =>
        'redactedContent' in block ? { reasoningContent: block } : { reasoningContent: { reasoningText: block } },
      );
      const content = [...reasoning, ...(reply.text ? [{ text: reply.text }] : []), ...toolUses.map((use) => ({ toolUse: use }))];
      response.writeHead(200, { 'content-type': 'application/json' });
      return void response.end(
        JSON.stringify({ output: { message: { role: 'assistant', content } }, stopReason, usage, metrics: { latencyMs: 10 } }),
      );
    }
    response.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
    response.write(frame('messageStart', { role: 'assistant' }));
    let block = 0;
    for (const reasoning of reply.reasoning ?? []) {
      const deltas =
        'redactedContent' in reasoning
          ? [{ redactedContent: reasoning.redactedContent }]
          : [...(reasoning.text.match(/.{1,4}/gs) ?? []).map((text) => ({ text })), { signature: reasoning.signature }];
      for (const delta of deltas)
        response.write(frame('contentBlockDelta', { contentBlockIndex: block, delta: { reasoningContent: delta } }));
      response.write(frame('contentBlockStop', { contentBlockIndex: block++ }));
    }
    if (reply.text) {
      for (const piece of reply.text.match(/.{1,4}/gs) ?? [])
        response.write(frame('contentBlockDelta', { contentBlockIndex: block, delta: { text: piece } }));
      response.write(frame('contentBlockStop', { contentBlockIndex: block++ }));
    }
    if (reply.streamException) return void response.end(exceptionFrame(reply.streamException.type, reply.streamException.message));
    for (const use of toolUses) {
      response.write(
        frame('contentBlockStart', { contentBlockIndex: block, start: { toolUse: { toolUseId: use.toolUseId, name: use.name } } }),
      );
      const input = JSON.stringify(use.input);
      for (const piece of input.match(/.{1,5}/gs) ?? [])
        response.write(frame('contentBlockDelta', { contentBlockIndex: block, delta: { toolUse: { input: piece } } }));
      response.write(frame('contentBlockStop', { contentBlockIndex: block++ }));
    }
    response.write(frame('messageStop', { stopReason }));
    response.end(frame('metadata', { usage, metrics: { latencyMs: 10 } }));
  });
  return {
    url: server.url,
    requests: server.requests,
    enqueue: (...replies) => void queue.push(...replies),
    respondWith: (next) => void (responder = next),
    close: () => server.close(),
  };
}
