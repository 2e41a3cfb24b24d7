/** The `azure-openai` provider kind. */
export { azureOpenAiKind, createAzureOpenAiAdapter } from './azure-openai-kind.js';
