/**
 * deploy/: the compose file and the Kubernetes manifests parse, and agree with the gateway and with each
 * other: ports, probe paths, the config path the gateway reads (GATEWAY_CONFIG), the Redis URL (a
 * service that exists, on its port), a grace period above the gateway's own, and a config that passes
 * the gateway's own validation with the environment the manifests give it.
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { loadConfig } from '../../src/config/load-config.js';
import type { GatewayConfig } from '../../src/config/config-types.js';
import { shutdownOverrunMs } from '../../src/plugins/live-streams.js';
import { projectRoot } from '../helpers/gateway-process.js';

type Manifest = { apiVersion: string; kind: string; metadata: { name: string }; spec?: any; data?: Record<string, string>; stringData?: Record<string, string> };

const folder = await mkdtemp(join(tmpdir(), 'interlingua-deploy-'));
afterAll(() => rm(folder, { recursive: true, force: true }));

/** The gateway's own loading (interpolation, validation, defaults) of `text` with `environment`. */
async function gatewayConfigOf(text: string, environment: Record<string, string>): Promise<GatewayConfig> {
  const file = join(folder, `config-${Math.random().toString(36).slice(2)}.yaml`);
  await writeFile(file, text);
  return (await loadConfig({ path: file, environment })).config;
}

function redisTarget(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || 6379) };
}

describe('deploy/docker-compose.yml', async () => {
  const compose = parse(await readFile(join(projectRoot, 'deploy/docker-compose.yml'), 'utf8')) as { services: Record<string, any> };
  const gateway = compose.services.gateway;

  it('builds the gateway from the Dockerfile, with Redis and Ollama beside it, each with a healthcheck', () => {
    expect(gateway.build).toEqual({ context: '..', dockerfile: 'Dockerfile' });
    expect(Object.keys(compose.services).sort()).toEqual(['gateway', 'ollama', 'redis']);
    for (const service of Object.values(compose.services)) expect(service.healthcheck.test.length).toBeGreaterThan(1);
    expect(gateway.healthcheck.test.join(' ')).toContain(`127.0.0.1:${gateway.environment.PORT}/health`);
    expect(Object.keys(gateway.depends_on).sort()).toEqual(['ollama', 'redis']);
  });

  it('pins every image it pulls to an exact release', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (name !== 'gateway') expect(service.image, name).toMatch(/^[\w./-]+:\d+\.\d+\.\d+(-[\w.]+)?$/);
    }
  });

  it('mounts a config that the gateway accepts, on its port, reaching Redis and Ollama by their service names', async () => {
    const [source, target] = (gateway.volumes as string[])[0]!.split(':');
    expect(target).toBe(gateway.environment.GATEWAY_CONFIG);
    const config = await gatewayConfigOf(await readFile(join(projectRoot, 'deploy', source!), 'utf8'), { ...gateway.environment, GATEWAY_KEY: 'a-client-key' });
    expect(config.server.port).toBe(Number(gateway.environment.PORT));
    expect(gateway.ports).toContain(`${config.server.port}:${config.server.port}`);
    expect(redisTarget(config.state.redis!)).toEqual({ host: 'redis', port: 6379 });
    expect(new URL(config.providers.local!.baseUrl).hostname).toBe('ollama');
    // The stop grace (seconds) is above the gateway's own shutdown grace and the close's margin.
    expect(Number.parseInt(gateway.stop_grace_period, 10) * 1000).toBeGreaterThan(config.server.shutdownGraceMs + shutdownOverrunMs);
  });
});

describe('deploy/kubernetes', async () => {
  const directory = join(projectRoot, 'deploy/kubernetes');
  const files = (await readdir(directory)).filter((name) => name.endsWith('.yaml'));
  const manifests: Manifest[] = [];
  for (const name of files) {
    for (const document of parseAllDocuments(await readFile(join(directory, name), 'utf8'))) {
      expect(document.errors, name).toEqual([]);
      manifests.push(document.toJS() as Manifest);
    }
  }
  const find = (kind: string, name: string) => {
    const manifest = manifests.find((candidate) => candidate.kind === kind && candidate.metadata.name === name);
    if (!manifest) throw new Error(`no ${kind} ${name} in deploy/kubernetes`);
    return manifest;
  };
  const deployment = find('Deployment', 'interlingua');
  const pod = deployment.spec.template.spec;
  const container = pod.containers[0];
  const environment = Object.fromEntries((container.env as { name: string; value: string }[]).map((variable) => [variable.name, variable.value]));

  it('lists every manifest in the kustomization', () => {
    const kustomization = manifests.find((manifest) => manifest.kind === 'Kustomization') as unknown as { resources: string[] };
    expect([...kustomization.resources].sort()).toEqual(files.filter((name) => name !== 'kustomization.yaml').sort());
  });

  it('probes readiness on /ready and liveness on /health, on the port the gateway listens on', () => {
    const http = (container.ports as { name: string; containerPort: number }[]).find((port) => port.name === 'http')!;
    expect(http.containerPort).toBe(Number(environment.PORT));
    expect(container.readinessProbe.httpGet).toEqual({ path: '/ready', port: 'http' });
    expect(container.livenessProbe.httpGet).toEqual({ path: '/health', port: 'http' });
    expect(container.resources.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    expect(container.resources.limits).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    const service = find('Service', 'interlingua');
    expect(service.spec.selector).toEqual(deployment.spec.template.metadata.labels);
    expect(service.spec.ports[0].targetPort).toBe('http');
    const autoscaler = find('HorizontalPodAutoscaler', 'interlingua');
    expect(autoscaler.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'interlingua' });
    expect(autoscaler.spec.minReplicas).toBeGreaterThanOrEqual(2);
  });

  it('mounts the ConfigMap where GATEWAY_CONFIG points, and its config passes the gateway validation with the Secret and env', async () => {
    const mount = (container.volumeMounts as { name: string; mountPath: string }[])[0]!;
    const volume = (pod.volumes as { name: string; configMap: { name: string; items: { key: string; path: string }[] } }[]).find((candidate) => candidate.name === mount.name)!;
    const item = volume.configMap.items[0]!;
    expect(environment.GATEWAY_CONFIG).toBe(`${mount.mountPath}/${item.path}`);
    const configMap = find('ConfigMap', volume.configMap.name);
    const secret = find('Secret', container.envFrom[0].secretRef.name);
    const config = await gatewayConfigOf(configMap.data![item.key]!, { ...secret.stringData, ...environment });
    expect(config.server.port).toBe(Number(environment.PORT));
    expect(config.server.apiKeys).toEqual([secret.stringData!.GATEWAY_KEY]);
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(config.server.shutdownGraceMs + shutdownOverrunMs);

    // The Redis URL names the Redis Service, on its port, and that Service reaches the Redis pods' port.
    const target = redisTarget(config.state.redis!);
    const redisService = find('Service', target.host);
    expect(redisService.spec.ports[0].port).toBe(target.port);
    const redis = manifests.find((manifest) => manifest.kind === 'Deployment' && JSON.stringify(manifest.spec.template.metadata.labels) === JSON.stringify(redisService.spec.selector))!;
    const redisPort = redis.spec.template.spec.containers[0].ports.find((port: { name: string }) => port.name === redisService.spec.ports[0].targetPort);
    expect(redisPort.containerPort).toBe(6379);
  });
});
