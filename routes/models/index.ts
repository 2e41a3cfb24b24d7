/**
 * GET /v1/models (every configured provider's models as `provider/model`, and each deployment by its
 * name; one provider failing to list does not fail the list) and GET /v1/models/{provider/model or deployment}.
 */
import type { FastifyInstance } from 'fastify';
import { gatewayError } from '../../src/core/gateway-error.js';
import { cancellationFromSignal } from '../../src/core/cancellation.js';
import type { ModelInfo } from '../../src/core/provider-adapter.js';
import type { ToolCallingMode } from '../../src/core/resolved-model.js';
import type { ServerKind } from '../../src/core/server-kind.js';
import type { AccessPolicy } from '../../src/pipeline/access-policy.js';
import type { ChatPipeline } from '../../src/pipeline/chat-pipeline.js';
import type { ProviderDirectory } from '../../src/pipeline/provider-directory.js';

/**
 * OpenAI's model object, plus two extension fields: `server`, the inference server found behind the
 * provider (when known), and `tool_calling`, the lane `toolCalling` picks for this model now.
 */
type WireModel = { id: string; object: 'model'; created: number; owned_by: string; server?: ServerKind; tool_calling: ToolCallingMode };

const listTimeoutMs = 5_000;

/** What the list needs of a configured deployment (the config's `Deployment`). */
type ListedDeployment = { name: string; targets: readonly { model: string }[] };

export type ModelsRouteOptions = {
  pipeline: ChatPipeline;
  providers: ProviderDirectory;
  /** The config's deployments: each name is listed as a model the gateway itself owns. */
  deployments?: ReadonlyMap<string, ListedDeployment> | undefined;
};

export function registerModelsRoutes(app: FastifyInstance, options: ModelsRouteOptions): void {
  const { pipeline, providers } = options;

  function toWireModel(provider: string, model: ModelInfo): WireModel {
    const resolved = pipeline.resolve(model.id, provider);
    const wire: WireModel = {
      id: `${provider}/${model.id}`,
      object: 'model',
      created: model.created ?? 0,
      owned_by: model.ownedBy ?? provider,
      tool_calling: resolved.toolCalling,
    };
    if (resolved.server !== undefined) wire.server = resolved.server;
    return wire;
  }

  async function listProvider(provider: string, requestId: string, log: FastifyInstance['log']): Promise<WireModel[]> {
    const adapter = providers.adapter(provider);
    const configured = Object.keys(providers.config(provider).models).map((id) => ({ id }));
    if (!adapter.listModels) return configured.map((model) => toWireModel(provider, model));
    try {
      const listed = await adapter.listModels({ cancellation: cancellationFromSignal(AbortSignal.timeout(listTimeoutMs)), requestId, log });
      const ids = new Set(listed.map((model) => model.id));
      return [...listed, ...configured.filter((model) => !ids.has(model.id))].map((model) => toWireModel(provider, model));
    } catch (error) {
      log.warn({ provider, error: (error as Error).message }, 'listing models failed');
      return configured.map((model) => toWireModel(provider, model));
    }
  }

  app.get('/v1/models', async (request) => {
    const lists = await Promise.all(providers.names().map((provider) => listProvider(provider, request.id, request.log)));
    // A key limited to some models sees only those.
    const access = request.gatewayContext?.access;
    const data = access ? lists.flat().filter((model) => access.allowsModel(model.id)) : lists.flat();
    for (const deployment of options.deployments?.values() ?? [])
      if (listsDeployment(deployment, access)) data.push(deploymentModel(deployment, pipeline));
    return { object: 'list', data };
  });

  app.get<{ Params: { '*': string } }>('/v1/models/*', async (request) => {
    const id = request.params['*'];
    // A deployment's name is listed above: retrieving it answers the same object, for the keys it is listed to.
    const deployment = options.deployments?.get(id);
    if (deployment) {
      if (!listsDeployment(deployment, request.gatewayContext?.access)) throw modelNotFound(id);
      return deploymentModel(deployment, pipeline);
    }
    const model = pipeline.resolve(id);
    const models = await listProvider(model.provider, request.id, request.log);
    const found = models.find((candidate) => candidate.id === id && (request.gatewayContext?.access?.allowsModel(candidate.id) ?? true));
    if (!found) throw modelNotFound(id);
    return found;
  });
}

function modelNotFound(id: string): Error {
  return gatewayError('model_not_found', { message: `The model '${id}' does not exist.`, param: 'model' });
}

/** A key limited to some models is shown a deployment when it may use one of its targets. */
function listsDeployment(deployment: ListedDeployment, access: AccessPolicy | null | undefined): boolean {
  return !access || deployment.targets.some((target) => access.allowsModel(target.model));
}

/** A deployment as a model: its lane is its first target's (all its targets serve the same model). */
function deploymentModel(deployment: ListedDeployment, pipeline: ChatPipeline): WireModel {
  const first = pipeline.resolve((deployment.targets[0] as { model: string }).model);
  return { id: deployment.name, object: 'model', created: 0, owned_by: 'interlingua', tool_calling: first.toolCalling };
}
