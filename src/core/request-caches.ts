/**
 * The gateway's caches of per-request work, in one place. Built once in src/app.ts and passed to what
 * uses them; nothing else in the gateway keeps state between requests at module level.
 *
 * Why: agents (Claude Code, Codex, opencode) resend the same 50–150 KB of tools, and the same long
 * system prompt, on every turn. Parsing, validating, translating, rendering and serialising them again
 * was most of a request's cost.
 *
 * Keyed by identity (`SharedListMemo`, `KeyedSharedListMemo`): results derived from a shared tool list
 * (src/core/shared-tool-list.ts). The body parser (src/plugins/known-tool-lists.ts, its own bounded
 * store of 8 lists by raw text, also built in app.ts) hands every request that resends a list the same
 * `SharedToolList`, and a route's translation of it is shared in turn. Identity is a sound key because
 * a shared list is deeply frozen and marked with a symbol no request body can produce; any other list
 * (an equal copy, a list the request built itself) is never found, and is worked on afresh. These
 * caches are weak: an entry lives as long as its list, so they hold at most what the body parser and
 * the requests in flight hold. A computation that throws is not kept: every request gets the error.
 *
 * Keyed by content (`RecentMemo`, `LongTextJson`): bounded, least recently used first out.
 *
 * Values are shared by every request that hits them, so they are frozen (or never written).
 */
import { LongTextJson } from './long-text-json.js';
import { RecentCombinations } from './recent-combinations.js';
import { RecentMemo } from './recent-memo.js';
import type { ToolCallingMode } from './resolved-model.js';
import { KeyedSharedListMemo, SharedListMemo } from './shared-list-memo.js';
import type { Warning } from './warning.js';

/** A tool prompt as the prompted lane inserts it, with the warnings its budget gave. */
export type RenderedToolPrompt = { prompt: string; warnings: Warning[] };

/** A model name's tool-format family and the tool calling `auto` means for it. */
export type FamilyMatch = { family: string; autoToolCalling: ToolCallingMode };

export type RequestCachesOptions = {
  /** Tool prompts of lists that are not shared, by family, choice and JSON text. */
  toolPromptCapacity: number;
  /** Model names whose family was looked up. */
  modelFamilyCapacity: number;
};

const defaultOptions: RequestCachesOptions = { toolPromptCapacity: 128, modelFamilyCapacity: 1024 };

export class RequestCaches {
  /**
   * Routes: a shared wire list → its neutral translation, keyed also by the translation (each inbound
   * API reads tools its own way, and one list text could reach two routes).
   * routes/shared/translate-tool-list.ts.
   */
  readonly toolTranslations = new KeyedSharedListMemo<object, object>();
  /** Routes: whether a shared wire list is valid, keyed also by the list's compiled schema. routes/shared/known-list-check.ts. */
  readonly toolListVerdicts = new KeyedSharedListMemo<object, boolean>();
  /** Pipeline: a shared list's tool names, checked unique once. src/pipeline/validate-chat-input.ts. */
  readonly toolNames = new SharedListMemo<ReadonlySet<string>>();
  /** Pipeline: a shared list's rendered tool prompt, keyed also by family and tool_choice. src/pipeline/tool-prompt-cache.ts. */
  readonly sharedToolPrompts = new KeyedSharedListMemo<string, RenderedToolPrompt>();
  /** Pipeline: the rendered tool prompt of any other list, by family, tool_choice and the tools' JSON. */
  readonly toolPrompts: RecentMemo<string, RenderedToolPrompt>;
  /** Pipeline: system texts with the tool prompt appended, the same string each turn. src/pipeline/insert-tool-prompt.ts. */
  readonly systemsWithToolPrompt = new RecentCombinations(8);
  /** OpenAI providers: a shared list's `tools` member as UTF-8 JSON. providers/openai/build-openai-request-body.ts. */
  readonly upstreamToolsJson = new SharedListMemo<Buffer>();
  /** OpenAI providers: long message texts (the prompted lane's system prompt) as JSON string literals. */
  readonly longTextJson = new LongTextJson();
  /** Config: a model name's family (every request names its model; an unknown one runs every pattern). */
  readonly modelFamilies: RecentMemo<string, FamilyMatch>;

  constructor(options: Partial<RequestCachesOptions> = {}) {
    const { toolPromptCapacity, modelFamilyCapacity } = { ...defaultOptions, ...options };
    this.toolPrompts = new RecentMemo(toolPromptCapacity);
    this.modelFamilies = new RecentMemo(modelFamilyCapacity);
  }
}
