/**
 * The betas (`anthropic-beta`) a Claude platform other than Anthropic's own API takes. Clients written for
 * Anthropic's API send betas that Vertex AI and Bedrock refuse for the whole request:
 * - Vertex AI takes betas in the `anthropic-beta` header, as Anthropic's API does (Anthropic's Vertex SDK sends
 *   them there), but only those it lists, and answers 400 for another: "Unexpected value(s)
 *   `structured-outputs-2025-11-13` for the `anthropic-beta` header. Please consult our documentation at
 *   docs.anthropic.com or try again without the header." (BerriAI/litellm#17755, ax-llm/ax#462,
 *   anthropics/claude-code#12429 for `web-search-2025-03-05`);
 * - Bedrock takes them in the body, `anthropic_beta: [...]` (the model parameters of Claude's Messages on
 *   Bedrock; Anthropic's Bedrock SDK moves the header there), which Converse passes on through
 *   `additionalModelRequestFields`, and answers 400 "The model returned the following errors: invalid beta flag"
 *   for one it does not take, naming none (anthropics/claude-code#26570, #49648).
 * So: the betas each platform is known to refuse are left out before sending (`structured-outputs-2025-11-13`
 * names the beta form of structured outputs, which the gateway never sends: it sends the GA fields, which need
 * no beta); a refusal naming others teaches them for the model (Bedrock's names none: every beta sent is
 * learned); each is left out of the same request sent once more, and of later ones until the refusal is
 * forgotten (`server.refusalMemoryMs`). The client is told of every beta left out, in a warning.
 */
import { modelsRemembered, type RefusalMemories, type RefusalMemory } from '../../src/core/refusal-memory.js';
import type { Warning } from '../../src/core/warning.js';

export type ClaudeBetaPlatform = {
  /** The platform's name, in warnings. */
  name: string;
  /** Betas the platform refuses, each with why the request does as well without it. */
  refused: ReadonlyMap<string, string>;
};

const structuredOutputsBeta = 'structured-outputs-2025-11-13';
const structuredOutputsInGa = 'structured outputs go in their GA fields, which need no beta';

export const vertexBetaPlatform: ClaudeBetaPlatform = {
  name: 'Vertex AI',
  refused: new Map([[structuredOutputsBeta, structuredOutputsInGa]]),
};

/** Converse takes a response format in its own `outputConfig`; InvokeModel's Claude refuses the beta outright. */
export const bedrockBetaPlatform: ClaudeBetaPlatform = {
  name: 'Bedrock',
  refused: new Map([[structuredOutputsBeta, 'structured outputs go in Converse’s own outputConfig, which needs no beta']]),
};

/** Betas as a list: a comma-separated header (several, joined), without blanks or repeats. */
export function betaList(header: string | undefined): string[] {
  return [...new Set((header ?? '').split(',').map((beta) => beta.trim()))].filter((beta) => beta !== '');
}

/** Vertex's words name the refused values, each in backquotes. */
const unexpectedBetas = /Unexpected value\(s\) (.+?) for the `anthropic-beta` header/;
const invalidBetaFlag = /\binvalid beta flag\b/i;

/** The betas a refusal names among those sent; all of them where it names none (Bedrock); none when it is no such refusal. */
export function refusedBetasOf(message: string, sent: readonly string[]): string[] {
  const named = unexpectedBetas.exec(message)?.[1];
  if (named !== undefined) {
    const values = [...named.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string);
    return sent.filter((beta) => values.includes(beta));
  }
  return invalidBetaFlag.test(message) ? [...sent] : [];
}

const leftOutStart = "anthropic-beta '";

/** The warning for a beta left out of what the platform is sent, and why. */
export function betaLeftOutWarning(beta: string, why: string): Warning {
  return { code: 'unsupported-parameter', message: `${leftOutStart}${beta}' was not sent: ${why}.` };
}

/** Whether a warning is one of those (an attempt sent again replaces the warnings of the one before). */
export function isBetaLeftOutWarning(warning: Warning): boolean {
  return warning.code === 'unsupported-parameter' && warning.message.startsWith(leftOutStart);
}

export class PlatformBetas {
  /** `model\nbeta` for each beta the platform refused for a model. */
  private readonly learned: RefusalMemory;

  constructor(
    private readonly platform: ClaudeBetaPlatform,
    memories: RefusalMemories,
  ) {
    this.learned = memories(modelsRemembered);
  }

  /** The betas the platform takes for the model, with a warning in `warnings` for each left out. */
  sendable(model: string, betas: readonly string[], warnings: Warning[]): string[] {
    const kept: string[] = [];
    for (const beta of betas) {
      const why =
        this.platform.refused.get(beta) ??
        (this.learned.has(`${model}\n${beta}`) ? 'it refused it, or a beta sent with it, for this model' : undefined);
      if (why === undefined) kept.push(beta);
      else warnings.push(betaLeftOutWarning(beta, `${this.platform.name} does not take it (${why})`));
    }
    return kept;
  }

  /**
   * Learns the betas a refusal names among those sent for the model; true when it named any, so the request
   * can go again without them (they are left out by `sendable` from now on, with a warning each).
   */
  learn(model: string, message: string, sent: readonly string[]): boolean {
    const refused = refusedBetasOf(message, sent);
    for (const beta of refused) this.learned.remember(`${model}\n${beta}`);
    return refused.length > 0;
  }
}
