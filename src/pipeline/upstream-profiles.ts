/**
 * The server directory (src/core/server-directory.ts): each probed provider's server, found once at start
 * in the background (never delaying startup or /health), asked again after an upstream failure (at most
 * once per `redetectAfterMs`), and what requests taught it (models whose native tools were refused).
 * Lookups are synchronous Map reads; anything that needs the network (a model's capabilities not read
 * at start) is started in the background and answers the next request.
 */
import type { Logger } from '../core/logger.js';
import type { ToolCallingMode } from '../core/resolved-model.js';
import type { ServerDirectory, ServerReport } from '../core/server-directory.js';
import type { ServerKind } from '../core/server-kind.js';
import type { ModelIdentity, ModelReading, ServerProber, UpstreamProfile } from '../core/server-profile.js';
import { classifyUpstreamFailure } from '../http/upstream-failure.js';
import { refusalMemories, type RefusalMemories, type RefusalMemory } from '../core/refusal-memory.js';

export type ProbedProvider = { name: string; prober: ServerProber; configured?: ServerKind };

export type UpstreamProfilesOptions = {
  log: Logger;
  /** The shortest time between two detections of one provider (default 30 s). */
  redetectAfterMs?: number;
  /** Injected by tests; Date.now otherwise. */
  now?: () => number;
  /** Makes the memories of models whose native tools were refused (the app's, src/app.ts); ten minutes when absent. */
  refusals?: RefusalMemories;
};

/** Bounds on what clients can make the directory remember: model names are theirs to choose. */
const maximumModelsPerProvider = 1_000;

const maximumRetryDelayMs = 5 * 60_000;

type ProviderState = ProbedProvider & {
  profile: UpstreamProfile;
  detecting?: Promise<void>;
  detectedAt?: number;
  /** Models whose native tools the server refused (vLLM without a tool parser): prompted until forgotten. */
  refused: RefusalMemory;
  /** Per-model answers learned after start (lazily), and the models asked about so far. */
  learned: Map<string, ModelReading>;
  asked: Set<string>;
  /** Detections in a row that found nobody, and the timer of the next one. */
  unreachableRetries: number;
  retryTimer?: NodeJS.Timeout;
  /** The stripping warning was logged. */
  warned?: boolean;
};

function laneFor(parses: boolean): ToolCallingMode {
  return parses ? 'native' : 'prompted';
}

export class UpstreamProfiles implements ServerDirectory {
  private readonly states = new Map<string, ProviderState>();
  private readonly stopping = new AbortController();
  private readonly redetectAfterMs: number;
  private readonly now: () => number;
  /** Failures ask again only once detection runs at all (an app built with it off never probes). */
  private started = false;

  constructor(
    providers: readonly ProbedProvider[],
    private readonly options: UpstreamProfilesOptions,
  ) {
    this.redetectAfterMs = options.redetectAfterMs ?? 30_000;
    this.now = options.now ?? Date.now;
    const refusals = options.refusals ?? refusalMemories();
    for (const provider of providers) {
      const profile: UpstreamProfile = provider.configured
        ? { server: provider.configured, found: 'configured', toolParsing: 'unknown' }
        : { found: 'pending', toolParsing: 'unknown' };
      const fresh = {
        refused: refusals(maximumModelsPerProvider),
        learned: new Map<string, ModelReading>(),
        asked: new Set<string>(),
        unreachableRetries: 0,
      };
      this.states.set(provider.name, { ...provider, profile, ...fresh });
    }
  }

  /** Starts every provider's detection in the background; `settled` resolves when all are done (tests, logs). */
  start(): { settled: Promise<void> } {
    this.started = true;
    const runs = [...this.states.values()].map((state) => this.detect(state, 'start'));
    return { settled: Promise.all(runs).then(() => undefined) };
  }

  /** Stops detections under way (shutdown). */
  close(): void {
    this.stopping.abort();
    for (const state of this.states.values()) clearTimeout(state.retryTimer);
  }

  server(provider: string): ServerKind | undefined {
    const state = this.states.get(provider);
    return state?.profile.server ?? state?.configured;
  }

  autoToolCalling(provider: string, model: string): ToolCallingMode | undefined {
    const state = this.states.get(provider);
    if (!state) return undefined;
    if (state.refused.has(model)) return 'prompted';
    const { profile } = state;
    switch (profile.toolParsing) {
      case 'every-model':
        return 'native';
      case 'no-model':
        return 'prompted';
      case 'until-refused':
        return 'native';
      case 'per-model': {
        const parses = profile.models?.get(model) ?? state.learned.get(model)?.parsesToolCalls;
        if (parses !== undefined) return laneFor(parses);
        this.learnModel(state, model);
        return undefined;
      }
      case 'unknown':
        return undefined;
    }
  }

  modelIdentity(provider: string, model: string): ModelIdentity | undefined {
    const state = this.states.get(provider);
    if (!state) return undefined;
    const { profile } = state;
    const identity = profile.identities?.get(model) ?? profile.servedModel ?? state.learned.get(model)?.identity;
    // A model the server's listing did not cover (Ollama reads 32 at start) is asked about on its own.
    if (identity === undefined && profile.toolParsing === 'per-model') this.learnModel(state, model);
    return identity;
  }

  rememberNativeRefused(provider: string, model: string): void {
    const state = this.states.get(provider);
    state?.refused.remember(model);
  }

  noticeFailure(provider: string, error: unknown): void {
    const state = this.states.get(provider);
    if (!state || state.detecting || !this.started) return;
    const failure = classifyUpstreamFailure(error);
    // A 4xx is the request's own problem; the server answered as itself.
    if (!failure || (failure.type === 'status' && failure.status < 500)) return;
    if (state.detectedAt !== undefined && this.now() - state.detectedAt < this.redetectAfterMs) return;
    void this.detect(state, 'failure');
  }

  report(provider: string): ServerReport | undefined {
    const state = this.states.get(provider);
    if (!state) return undefined;
    const { server, version, found } = state.profile;
    const report: ServerReport = { found };
    if (server !== undefined) report.server = server;
    if (version !== undefined) report.version = version;
    return report;
  }

  private detect(state: ProviderState, reason: 'start' | 'failure'): Promise<void> {
    if (state.detecting) return state.detecting;
    state.detectedAt = this.now();
    const run = state.prober
      .detect(this.stopping.signal)
      .then((profile) => this.adopt(state, profile, reason))
      .catch((error: unknown) =>
        this.options.log.warn({ provider: state.name, error: String(error) }, 'detecting the upstream server failed'),
      )
      .finally(() => {
        state.detecting = undefined;
      });
    state.detecting = run;
    return run;
  }

  private adopt(state: ProviderState, profile: UpstreamProfile, reason: 'start' | 'failure'): void {
    if (this.stopping.signal.aborted) return;
    const before = state.profile;
    if (profile.found === 'unreachable') {
      // The kind does not change because the server is down: what was known of it (configured or found earlier) stays.
      const known = before.toolParsing === 'unknown' ? profile : before;
      state.profile = { ...known, found: 'unreachable' };
      const server = profile.server ?? before.server;
      if (server !== undefined) state.profile.server = server;
      this.retryWhileUnreachable(state);
    } else {
      state.profile = profile;
      state.unreachableRetries = 0;
      // What the server said of its models replaces what requests taught: a restarted server may differ.
      if (reason === 'failure') {
        state.refused.clear();
        state.learned.clear();
        state.asked.clear();
      }
    }
    const changed =
      before.server !== state.profile.server || before.version !== state.profile.version || before.found !== state.profile.found;
    if (reason === 'start' || changed) this.logProfile(state, reason);
  }

  /**
   * A server that did not answer at start (or after a failure) is asked again later, without waiting for a
   * request to fail: each wait twice the last, from `redetectAfterMs` up to five minutes.
   */
  private retryWhileUnreachable(state: ProviderState): void {
    if (state.retryTimer || this.stopping.signal.aborted) return;
    const delay = Math.min(this.redetectAfterMs * 2 ** state.unreachableRetries, maximumRetryDelayMs);
    state.unreachableRetries++;
    state.retryTimer = setTimeout(() => {
      state.retryTimer = undefined;
      void this.detect(state, 'failure');
    }, delay);
    // Never the reason the process stays up.
    state.retryTimer.unref();
  }

  private logProfile(state: ProviderState, reason: 'start' | 'failure'): void {
    const { server, version, found, toolParsing, strippingWarning } = state.profile;
    const line = { provider: state.name, server: server ?? null, version: version ?? null, found, toolParsing };
    this.options.log.info(line, reason === 'start' ? 'upstream server' : 'upstream server detected again after a failure');
    // Said once per provider, whenever the server is first found to strip.
    if (strippingWarning && !state.warned) {
      state.warned = true;
      this.options.log.warn({ provider: state.name, server: server ?? null }, strippingWarning);
    }
  }

  /** A per-model server's answers for a model not read at start, fetched once in the background. */
  private learnModel(state: ProviderState, model: string): void {
    const { prober, profile } = state;
    if (!prober.readModel || state.asked.has(model) || state.asked.size >= maximumModelsPerProvider) return;
    state.asked.add(model);
    prober
      .readModel(model, profile, this.stopping.signal)
      .then((reading) => {
        if (reading !== undefined) state.learned.set(model, reading);
      })
      .catch(() => undefined);
  }
}
