/** Checks the config's `deployments` against its providers and aliases, and fills in their defaults. */
import { GatewayError } from '../core/gateway-error.js';
import { ConfigError } from './config-error.js';
import type { Deployment, DeploymentStrategy, GatewayConfig, ProviderConfig } from './config-types.js';
import { resolveModelAddress } from './resolve-model.js';

/** Long enough for a restarting server to come back, short enough that a recovered one is used again soon. */
const defaultCooldownSeconds = 30;

type DeploymentFile = {
  strategy?: DeploymentStrategy;
  targets: { model: string; weight?: number }[];
  cooldownSeconds?: number;
  affinity?: 'none' | 'session';
};

export function normalizeDeployments(
  deployments: Record<string, DeploymentFile> | undefined,
  providers: Record<string, ProviderConfig>,
  aliases: Record<string, string> = {},
): Map<string, Deployment> | undefined {
  if (!deployments || Object.keys(deployments).length === 0) return undefined;
  const config: Pick<GatewayConfig, 'providers' | 'aliases'> = { providers, aliases: new Map(Object.entries(aliases)) };
  const problems: string[] = [];
  const normalized = new Map<string, Deployment>();
  for (const [name, deployment] of Object.entries(deployments)) {
    if (Object.hasOwn(aliases, name)) problems.push(`deployments.${name}: the name is also an alias; give one of them another name`);
    const seen = new Set<string>();
    deployment.targets.forEach((target, index) => {
      try {
        resolveModelAddress(config, target.model);
      } catch (error) {
        if (!GatewayError.isInstance(error)) throw error;
        problems.push(`deployments.${name}.targets.${index}.model: ${error.message}`);
      }
      if (seen.has(target.model)) problems.push(`deployments.${name}.targets.${index}.model: '${target.model}' is listed twice`);
      seen.add(target.model);
    });
    normalized.set(name, {
      name,
      strategy: deployment.strategy ?? 'weighted',
      targets: deployment.targets.map((target) => ({ model: target.model, weight: target.weight ?? 1 })),
      cooldownMs: (deployment.cooldownSeconds ?? defaultCooldownSeconds) * 1000,
      sessionAffinity: deployment.affinity === 'session',
    });
  }
  if (problems.length) throw new ConfigError(problems);
  return normalized;
}
