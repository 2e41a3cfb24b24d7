/**
 * A deployment's targets for one request: the balancer's order (healthy targets by the strategy, then those
 * cooling down), each resolved, those the client key may not use left out. Every target keeps the name the
 * client asked for, as an alias does. No target allowed is refused as the first one would be (403); a chat
 * first looks on to the name's own `fallbacks` (src/pipeline/chat-pipeline.ts).
 */
import type { Deployment } from '../config/config-types.js';
import { gatewayError } from '../core/gateway-error.js';
import type { ResolvedModel } from '../core/resolved-model.js';
import type { AccessPolicy } from './access-policy.js';
import type { DeploymentBalancer } from './deployment-balancer.js';

export type DeploymentOrderRequest = {
  deployment: Deployment;
  /** The deployment's name, as the client sent it. */
  name: string;
  access: AccessPolicy | undefined;
  /** The conversation's key, for a deployment with session affinity. */
  sessionKey?: string | undefined;
};

export function orderedDeploymentTargets(
  balancer: DeploymentBalancer,
  resolve: (modelString: string) => ResolvedModel,
  request: DeploymentOrderRequest,
): ResolvedModel[] {
  const { allowed, resolved } = allowedDeploymentTargets(balancer, resolve, request);
  if (allowed.length > 0) return allowed;
  return refuseDeployment(resolved, request);
}

/**
 * The targets the key may use, possibly none (a chat then goes on to the name's own `fallbacks`, which the
 * key may be allowed), and every target resolved (for the refusal when nothing at all is allowed).
 */
export function allowedDeploymentTargets(
  balancer: DeploymentBalancer,
  resolve: (modelString: string) => ResolvedModel,
  request: DeploymentOrderRequest,
): { allowed: ResolvedModel[]; resolved: ResolvedModel[] } {
  const { deployment, name, access } = request;
  const resolved = balancer.order(deployment, request.sessionKey).map((model) => ({ ...resolve(model), id: name }));
  const allowed = access ? resolved.filter((target) => access.allowsTarget(target)) : resolved;
  return { allowed, resolved };
}

/** Nothing the key may use: refused as the first target would be (403 `model_not_allowed`). */
export function refuseDeployment(resolved: readonly ResolvedModel[], request: Pick<DeploymentOrderRequest, 'name' | 'access'>): never {
  request.access?.checkModel(resolved[0] as ResolvedModel);
  throw gatewayError('model_not_allowed', { message: `The key may not use deployment '${request.name}'.`, param: 'model' });
}
