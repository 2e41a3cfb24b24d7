/** The `bedrock` provider kind. */
export { bedrockKind } from './bedrock-kind.js';
