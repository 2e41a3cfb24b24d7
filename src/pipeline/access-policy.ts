/**
 * What one client key may do: which models it may use (403 `model_not_allowed` outside them) and which
 * tools it may offer. A tool it may not use never reaches the model, and a call to one is never returned:
 * the gateway's side of an agent runtime's approval hook.
 */
import type { Budget, ClientKey } from '../config/config-types.js';
import { globToRegExp, matchesAny } from '../config/glob-pattern.js';
import { gatewayError } from '../core/gateway-error.js';
import { freezeDeeply } from '../core/immutable-values.js';
import { isSharedToolList, shareToolList } from '../core/shared-tool-list.js';
import type { ResolvedModel } from '../core/resolved-model.js';
import type { ToolDefinition } from '../core/tool-definition.js';
import type { Warning } from '../core/warning.js';

/** `name` when `glob` is `name/*` with no other wildcard in `name`, else undefined. */
export function wholeProviderOf(glob: string): string | undefined {
  if (!glob.endsWith('/*')) return undefined;
  const provider = glob.slice(0, -2);
  return provider.length > 0 && !/[*?]/.test(provider) ? provider : undefined;
}

export type ToolFilterResult = { readonly tools: ToolDefinition[]; readonly warning?: Warning };

export class AccessPolicy {
  readonly name: string;
  /** An operator's key: it may reload the config and read every key's usage. */
  readonly admin: boolean;
  /**
   * May scrape `GET /metrics`, whose series name every key with its tokens and spend: an admin key, or one
   * given as a plain string, which the config reference defines as full access. A key the operator wrote
   * as a policy object (a team's key) may not: it sees only its own usage, on `GET /v1/usage`.
   */
  readonly readsMetrics: boolean;
  /** The key's own spend limit (the server's default applies when absent). */
  readonly budget: Budget | undefined;
  private readonly filtered = new WeakMap<readonly ToolDefinition[], ToolFilterResult>();
  private readonly models: readonly RegExp[] | undefined;
  /**
   * Providers a `provider/*` glob allows whole, precompiled once per key: a model of one of them is
   * allowed without building `provider/model` or running a RegExp (a fast accept only: every glob stays in
   * `models`, so a provider whose own name holds a `/` still gets the full test).
   */
  readonly wholeProviders: ReadonlySet<string>;
  private readonly allowedTools: readonly RegExp[] | undefined;
  private readonly deniedTools: readonly RegExp[];
  /** Whether this key limits tools at all (most don't: their requests skip the tool filters). */
  readonly limitsTools: boolean;

  constructor(clientKey: ClientKey) {
    this.name = clientKey.name;
    this.admin = clientKey.admin === true;
    this.readsMetrics = this.admin || clientKey.fullAccess === true;
    this.budget = clientKey.budget;
    this.models = clientKey.models?.map(globToRegExp);
    this.wholeProviders = new Set(clientKey.models?.flatMap((glob) => wholeProviderOf(glob) ?? []));
    this.allowedTools = clientKey.tools?.allow?.map(globToRegExp);
    this.deniedTools = clientKey.tools?.deny?.map(globToRegExp) ?? [];
    this.limitsTools = this.allowedTools !== undefined || this.deniedTools.length > 0;
  }

  /** `provider/model` as configured (an alias is checked by its target, so it cannot widen a key's reach). */
  allowsModel(providerAndModel: string): boolean {
    return this.models === undefined || matchesAny(this.models, providerAndModel);
  }

  /** A resolved target: a glob that allows its whole provider answers without a pattern test. */
  allowsTarget(model: ResolvedModel): boolean {
    return (
      this.models === undefined || this.wholeProviders.has(model.provider) || matchesAny(this.models, `${model.provider}/${model.model}`)
    );
  }

  checkModel(model: ResolvedModel): void {
    if (this.allowsTarget(model)) return;
    const target = `${model.provider}/${model.model}`;
    throw gatewayError('model_not_allowed', { param: 'model', message: `The API key '${this.name}' may not use model '${target}'.` });
  }

  allowsTool(name: string): boolean {
    if (matchesAny(this.deniedTools, name)) return false;
    return this.allowedTools === undefined || matchesAny(this.allowedTools, name);
  }

  /**
   * The tools the model may see, and a warning naming the ones removed. Agents resend one list on every
   * turn, and a list seen before is the same shared list (src/core/shared-tool-list.ts): its answer is
   * remembered by identity, weakly, so that a key's policy costs one lookup per request, not one glob test per tool.
   */
  filterTools(tools: readonly ToolDefinition[]): ToolFilterResult {
    const known = this.filtered.get(tools);
    if (known) return known;
    const result = this.filterToolsNow(tools);
    // Only a shared list can be remembered (a list the request may still change is filtered every time),
    // and the filtered list is shared in turn, so what is derived from it downstream is cached too.
    if (!isSharedToolList(tools)) return result;
    const shared = freezeDeeply({ ...result, tools: shareToolList(result.tools) });
    this.filtered.set(tools, shared);
    return shared;
  }

  private filterToolsNow(tools: readonly ToolDefinition[]): ToolFilterResult {
    const kept = tools.filter((tool) => this.allowsTool(tool.name));
    if (kept.length === tools.length) return { tools: kept };
    const removed = tools.filter((tool) => !this.allowsTool(tool.name)).map((tool) => tool.name);
    return {
      tools: kept,
      warning: { code: 'tool-not-allowed', message: `Removed tools the API key '${this.name}' may not use: ${removed.join(', ')}.` },
    };
  }
}
