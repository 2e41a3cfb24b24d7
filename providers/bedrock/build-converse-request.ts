/**
 * The neutral request as Bedrock's Converse API takes it
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html): system prompts
 * apart, user and assistant turns alternating (consecutive ones merged, tool results as `toolResult` blocks
 * of a user turn), tools as `toolSpec`s, `tool_choice` as `auto`/`any`/`tool`, sampling in `inferenceConfig`,
 * a JSON schema response format in `outputConfig.textFormat`.
 */
import type {
  ContentBlock,
  ConverseCommandInput,
  ToolResultContentBlock,
  Message as ConverseMessage,
  SystemContentBlock,
  Tool,
} from '@aws-sdk/client-bedrock-runtime';
import type { ChatRequest } from '../../src/core/chat-request.js';
import { grammarToolSchema } from '../../src/core/grammar-schema-subset.js';
import { inlineFileData } from '../../src/core/inline-file-data.js';
import type { CacheMark, FilePart, Message, ToolResultPart } from '../../src/core/message.js';
import { foldToolResultFiles, type ToolResultFiles } from '../../src/core/tool-result-files.js';
import type { Warning } from '../../src/core/warning.js';
import { argumentsObject } from '../arguments-object.js';
import { restrictedToolId } from '../restricted-tool-id.js';
import { cachePointOf } from './converse-cache-point.js';
import { capDocuments, converseDocument, isPdf, withDocumentText, type DocumentNames } from './converse-document-block.js';
import { splitClaudeClientTools } from './converse-claude-client-tools.js';
import { converseTextFormat } from './converse-text-format.js';
import { mapAnthropicToolChoice } from '../anthropic/map-anthropic-tool-choice.js';
import { changesSampling, claudeSamplingFields, type ClaudeSamplingFields } from '../anthropic/claude-sampling.js';
import { takesConverseStrictTools } from '../anthropic/claude-version-rules.js';
import { applyClaudeThinking, asksForReasoning, isBedrockClaude } from './converse-claude-thinking.js';

/**
 * Converse refuses a history with toolUse or toolResult blocks and no `toolConfig` ("The toolConfig field must
 * be defined when using toolUse and toolResult content blocks."). A request that offers no tools but carries
 * an earlier tool exchange gets this one tool, which says not to call it; a call to it is dropped from the
 * reply (read-converse-reply.ts), so the client never sees a tool it did not offer.
 */
export const noToolsOfferedName = 'interlingua_no_tools_offered';

const noToolsOffered: Tool = {
  toolSpec: {
    name: noToolsOfferedName,
    description: 'No tools are offered in this turn. Do not call this tool; answer in text.',
    inputSchema: { json: { type: 'object', properties: {} } },
  },
};

/** Converse takes only an object schema (`inputSchema.json.type` must be `object`): a tool without one gets an empty object's. */
function objectSchema(parameters: Record<string, unknown> | undefined): Record<string, unknown> {
  if (parameters?.type === 'object') return parameters;
  return { ...parameters, type: 'object', properties: (parameters?.properties as Record<string, unknown> | undefined) ?? {} };
}

/**
 * Claude on Bedrock wants a user turn after a tool use to begin with its results ("Messages following
 * `tool_use` blocks must begin with a matching number of `tool_result` blocks"): a turn that merged text and
 * results puts the results first, each in the order given.
 */
function resultsFirst(content: ContentBlock[]): ContentBlock[] {
  if (!content.some((block) => block.toolResult) || content.every((block) => block.toolResult)) return content;
  return [...content.filter((block) => block.toolResult), ...content.filter((block) => !block.toolResult)];
}

function hasClaudeToolChoice(input: ConverseCommandInput): boolean {
  return (input.additionalModelRequestFields as { tool_choice?: unknown } | undefined)?.tool_choice !== undefined;
}

function hasToolBlocks(messages: readonly ConverseMessage[]): boolean {
  return messages.some((message) => message.content?.some((block) => block.toolUse !== undefined || block.toolResult !== undefined));
}

const imageFormats: Readonly<Record<string, 'png' | 'jpeg' | 'gif' | 'webp'>> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/**
 * Converse takes image bytes inline or from S3, never a URL, and each block's own format: a `data:` URL is
 * decoded from its payload (decoding it whole would send its header as bytes).
 */
function imageBlock(part: FilePart, warnings: Warning[]): ContentBlock[] {
  const data = inlineFileData(part);
  const format = data.type === 'inline' ? imageFormats[data.mediaType.toLowerCase()] : undefined;
  if (data.type === 'inline' && format) return [{ image: { format, source: { bytes: Buffer.from(data.base64, 'base64') } } }];
  const why =
    data.type === 'url'
      ? 'Converse takes images inline only (base64 or a data: URL)'
      : data.type === 'malformed'
        ? data.reason
        : 'its type is not png, jpeg, gif or webp';
  warnings.push({ code: 'unsupported-content', message: `Bedrock: a ${part.mediaType} part was left out (${why}).` });
  return [];
}

/**
 * Converse refuses a text block that is empty or only whitespace ("The text field in the ContentBlock object
 * at messages.1.content.0 is blank. Add text to the text field, and try again."), and a turn with no blocks
 * ("The content field in the Message object at messages.1 is empty."): clients send both, an assistant turn
 * `content: ""` beside its tool calls, Claude's "\n\n" before a tool use, a tool that printed nothing.
 */
function isBlank(text: string): boolean {
  return text.trim() === '';
}

/** What an empty tool result says instead of a blank block: the model learns the tool ran and printed nothing. */
const emptyToolOutput = '(no output)';

/**
 * Whether the model's tool results take images: "This field is only supported by Amazon Nova and Anthropic
 * Claude 3 and 4 models" (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolResultContentBlock.html,
 * `image`). Another model gets a tool's images as user content after the results, as before.
 */
function takesToolResultImages(model: string, claude: boolean): boolean {
  return claude || /(^|\.)amazon\.nova-/.test(model);
}

/**
 * What one request's blocks are made with: the files that go back into tool results, the names of its documents,
 * and whether the model is Claude (which alone gets cache points and PDFs).
 */
type BlockContext = { files: ToolResultFiles; warnings: Warning[]; claude: boolean; documentNames: DocumentNames };

/**
 * A file the tool returned, inside its result: an image (computer use's screenshots), or for Claude a PDF
 * (`document`: API_runtime_ToolResultContentBlock.html), which foldToolResultFiles put back only when the model takes it.
 */
function toolResultFile(file: FilePart, context: BlockContext): ToolResultContentBlock[] {
  if (isPdf(file)) {
    const document = converseDocument(file, context.documentNames, context.warnings);
    return document ? [{ document }] : [];
  }
  return imageBlock(file, context.warnings).flatMap((block) => (block.image ? [{ image: block.image }] : []));
}

/** A tool result's text, and the images and PDFs its tool returned when the model takes them there. */
function toolResultContent(part: ToolResultPart, context: BlockContext): ToolResultContentBlock[] {
  const files = context.files.filesOf(part).flatMap((file) => toolResultFile(file, context));
  if (files.length > 0 && isBlank(part.output)) return files;
  return [{ text: isBlank(part.output) ? emptyToolOutput : part.output }, ...files];
}

/** A user's file: an image, or a PDF as a document for Claude (another model's PDF is left out, as before). */
function userFile(part: FilePart, context: BlockContext): ContentBlock[] {
  if (!context.claude || !isPdf(part)) return imageBlock(part, context.warnings);
  const document = converseDocument(part, context.documentNames, context.warnings);
  return document ? [{ document }] : [];
}

function blocksOf(message: Exclude<Message, { role: 'system' }>, context: BlockContext): ContentBlock[] {
  const withPoint = (blocks: ContentBlock[], mark: CacheMark | undefined): ContentBlock[] =>
    context.claude && mark && blocks.length > 0 ? [...blocks, cachePointOf(mark)] : blocks;
  switch (message.role) {
    case 'user':
      return message.content.flatMap((part) =>
        withPoint(part.type === 'text' ? [{ text: part.text }] : userFile(part, context), part.cache),
      );
    case 'assistant':
      return message.content.flatMap((part): ContentBlock[] => {
        if (part.type === 'text') return withPoint([{ text: part.text }], part.cache);
        if (part.type === 'tool-call') {
          const input = argumentsObject(part.arguments) as never;
          return withPoint([{ toolUse: { toolUseId: restrictedToolId(part.id), name: part.name, input } }], part.cache);
        }
        // Claude's encrypted reasoning, base64 in the neutral part, goes back as the bytes Converse gave
        // (reasoningContent.redactedContent, a blob); no other model can read it.
        if (part.type === 'redacted-reasoning')
          return context.claude ? [{ reasoningContent: { redactedContent: Buffer.from(part.data, 'base64') } }] : [];
        // Claude verifies every thinking block's signature and refuses one without ("thinking.signature: Field
        // required", maximhq/bifrost#6942): reasoning from another model, or with its signature lost, is left out for
        // it, as the Anthropic adapter does; Nova and others take reasoning unsigned.
        if (!part.signature) return context.claude ? [] : [{ reasoningContent: { reasoningText: { text: part.text } } }];
        return [{ reasoningContent: { reasoningText: { text: part.text, signature: part.signature } } }];
      });
    case 'tool':
      return message.content.flatMap((part) =>
        withPoint(
          [
            {
              toolResult: {
                toolUseId: restrictedToolId(part.toolCallId),
                content: toolResultContent(part, context),
                status: part.isError ? 'error' : 'success',
              },
            },
          ],
          part.cache,
        ),
      );
  }
}

/**
 * Why the model cannot take `toolSpec.strict`, or undefined when it can
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/structured-output.html): Claude 4.5 and 4.6 only
 * (claude-version-rules.ts). Bedrock lists "select" open-weight models too, with no list the gateway can
 * follow by name, so they are sent no strict rather than refused.
 */
function strictToolsGap(model: string, claude: boolean): string | undefined {
  if (claude && takesConverseStrictTools(model)) return undefined;
  return claude
    ? `Bedrock's Converse takes toolSpec.strict for Claude 4.5 and 4.6 only, not ${model}`
    : `Bedrock's Converse takes toolSpec.strict only for the models it lists, and the gateway knows Claude 4.5 and 4.6 among them, not ${model}`;
}

/** `strictRefused`: why strict tools go without strict though the model takes them (the host gave up on their grammar). */
export function buildConverseRequest(
  request: ChatRequest,
  options: { strictRefused?: string } = {},
): { input: ConverseCommandInput; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const claude = isBedrockClaude(request.model.model);
  const system = request.messages.flatMap((message): SystemContentBlock[] => {
    if (message.role !== 'system' || isBlank(message.content)) return [];
    return claude && message.cache ? [{ text: message.content }, cachePointOf(message.cache)] : [{ text: message.content }];
  });
  const messages: ConverseMessage[] = [];
  const takesImages = takesToolResultImages(request.model.model, claude);
  const files = foldToolResultFiles(request.messages, (file) =>
    file.mediaType.toLowerCase().startsWith('image/') ? takesImages : claude && isPdf(file),
  );
  const context: BlockContext = { files, warnings, claude, documentNames: new Set() };
  for (const message of files.messages) {
    if (message.role === 'system') continue;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const content = blocksOf(message, context).filter((block) => block.text === undefined || !isBlank(block.text));
    if (content.length === 0) continue;
    const last = messages.at(-1);
    // Converse requires alternating roles: a tool result after a user turn joins it.
    if (last && last.role === role) last.content = [...(last.content ?? []), ...content];
    else messages.push({ role, content });
  }
  if (context.documentNames.size > 0) {
    capDocuments(messages, context.documentNames.size, warnings);
    for (const message of messages) withDocumentText(message);
  }
  for (const message of messages) if (message.role === 'user' && message.content) message.content = resultsFirst(message.content);
  const input: ConverseCommandInput = { modelId: request.model.model, messages };
  if (system.length > 0) input.system = system;
  const inference: NonNullable<ConverseCommandInput['inferenceConfig']> = {};
  if (typeof request.maxOutputTokens === 'number') inference.maxTokens = request.maxOutputTokens;
  // Claude takes the sampling fields its version takes (claude-sampling.ts); other models, what was given.
  const sampling: ClaudeSamplingFields = claude
    ? claudeSamplingFields(request, request.model.provider, warnings)
    : {
        ...(typeof request.temperature === 'number' ? { temperature: request.temperature } : {}),
        ...(typeof request.topP === 'number' ? { topP: request.topP } : {}),
      };
  if (sampling.temperature !== undefined) inference.temperature = sampling.temperature;
  if (sampling.topP !== undefined) inference.topP = sampling.topP;
  if (request.stop?.length) inference.stopSequences = request.stop;
  if (Object.keys(inference).length > 0) input.inferenceConfig = inference;
  // Converse has no tool_choice "none": the tools are withheld instead, so the model cannot call one the
  // client forbade (a tool history still gets the placeholder below, whose calls are dropped).
  if (request.tools?.length && request.toolChoice?.type !== 'none') {
    const modelGap = options.strictRefused ?? strictToolsGap(request.model.model, claude);
    // Claude takes Anthropic's own tools in their own form (converse-claude-client-tools.ts); another model
    // gets them as the custom tools the route described.
    const { clientTools, customTools } = claude ? splitClaudeClientTools(request.tools) : { clientTools: [], customTools: request.tools };
    if (clientTools.length > 0) input.additionalModelRequestFields = { tools: clientTools as never };
    const tools: Tool[] = customTools.flatMap((tool): Tool[] => {
      const grammar = grammarToolSchema(
        { ...tool, parameters: objectSchema(tool.parameters) },
        `Bedrock provider '${request.model.provider}'`,
        modelGap,
      );
      warnings.push(...grammar.warnings);
      const spec: Tool = {
        toolSpec: {
          name: tool.name,
          ...(tool.description ? { description: tool.description } : {}),
          inputSchema: { json: grammar.schema as never },
          ...(grammar.strict ? { strict: true } : {}),
        },
      };
      return claude && tool.cache ? [spec, cachePointOf(tool.cache)] : [spec];
    });
    const choice = request.toolChoice;
    for (const tool of request.tools)
      if (tool.cache && clientTools.some((clientTool) => clientTool.name === tool.name))
        warnings.push({
          code: 'unsupported-parameter',
          message: `Bedrock: the cache breakpoint on '${tool.name}' was not sent; Converse places breakpoints among toolConfig's tools, and Anthropic's own tools go apart.`,
        });
    if (tools.length > 0) input.toolConfig = { tools };
    // Converse's toolChoice names toolConfig's tools only: beside Anthropic's own tools the choice goes in Claude's
    // own form with them (converse-claude-client-tools.ts), where it can name either kind and keep parallel calls off.
    if (clientTools.length > 0) {
      const claudeChoice = mapAnthropicToolChoice(choice, request.parallelToolCalls);
      if (claudeChoice)
        input.additionalModelRequestFields = { ...(input.additionalModelRequestFields as object), tool_choice: claudeChoice as never };
    } else if (input.toolConfig) {
      if (choice?.type === 'required') input.toolConfig.toolChoice = { any: {} };
      else if (choice?.type === 'tool') input.toolConfig.toolChoice = { tool: { name: choice.name } };
      else if (choice?.type === 'auto') input.toolConfig.toolChoice = { auto: {} };
    }
  }
  if (!input.toolConfig && hasToolBlocks(messages)) input.toolConfig = { tools: [noToolsOffered] };
  const textFormat = converseTextFormat(request, warnings);
  if (textFormat) input.outputConfig = { textFormat };
  // Claude on Bedrock takes top_k through the model's own request fields
  // (https://docs.aws.amazon.com/bedrock/latest/userguide/conversation-inference-call.html, additionalModelRequestFields);
  // one its version refuses was named when the sampling fields were read.
  if (sampling.topK !== undefined)
    input.additionalModelRequestFields = { ...(input.additionalModelRequestFields as object | undefined), top_k: sampling.topK };
  for (const [name, value] of Object.entries(request.openaiExtras ?? {}))
    if (!(claude && name === 'top_k' && typeof value === 'number'))
      warnings.push({ code: 'unsupported-parameter', message: `Bedrock Converse has no ${name}: it was not sent.` });
  for (const name of ['seed', 'presencePenalty', 'frequencyPenalty', 'user'] as const)
    if (request[name] !== undefined && request[name] !== null)
      warnings.push({ code: 'unsupported-parameter', message: `Bedrock Converse has no ${name}: it was not sent.` });
  // Converse's toolChoice has no switch for parallel calls: the model may still make several (Claude's own form has one).
  if (request.parallelToolCalls === false && input.toolConfig && !hasClaudeToolChoice(input))
    warnings.push({
      code: 'unsupported-parameter',
      message: 'Bedrock Converse cannot turn parallel tool calls off: the model may make several.',
    });
  if (claude) applyClaudeThinking(request, input, { changesSampling: changesSampling(sampling), warnings });
  else if (asksForReasoning(request))
    warnings.push({
      code: 'unsupported-parameter',
      message: `Bedrock: reasoning_effort '${String(request.reasoningEffort)}' was not applied; only Claude models on Bedrock take a thinking switch.`,
    });
  return { input, warnings };
}
