// The deployment files say what docs/scaling.md says: three replicas, health probes, and one
// routing key, the same for docker compose (nginx.conf) and Kubernetes (ingress-nginx).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { ROOT } from '../helpers/cli.js';

const read = (path: string) => readFileSync(join(ROOT, 'deploy', path), 'utf8');
const maps = (conf: string) => (conf.match(/map \$[^{]+\{[^}]*\}/g) ?? []).map((m) => m.replace(/\s+/g, ' '));

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('deploy/compose', () => {
  const compose = parse(read('compose/docker-compose.yml'), { merge: true }) as Doc;

  it('runs three sandbox replicas behind nginx with the routing of nginx.conf', () => {
    const replicas = Object.keys(compose.services).filter((s) => s.startsWith('sandbox-'));
    expect(replicas).toEqual(['sandbox-1', 'sandbox-2', 'sandbox-3']);
    for (const name of replicas) expect(compose.services[name].environment.SANDBOX_ADMIN_TOKEN).toBeDefined();
    expect(compose.services.nginx.volumes).toEqual(['./nginx.conf:/etc/nginx/conf.d/default.conf:ro']);
    const conf = read('compose/nginx.conf');
    for (const name of replicas) expect(conf).toMatch(new RegExp(`server ${name}:3000[ ;]`));
    expect(conf).toContain('hash $sandbox_key consistent;');
  });
});

describe('deploy/kubernetes', () => {
  const docs = ['deployment.yaml', 'service.yaml', 'ingress.yaml', 'ingress-nginx-config.yaml'].flatMap((f) =>
    parseAllDocuments(read(`kubernetes/${f}`)).map((d) => d.toJS() as Doc),
  );
  const kind = (k: string) => docs.find((d) => d.kind === k)!;

  it('runs three replicas with readiness and liveness on /__sandbox/health', () => {
    const deployment = kind('Deployment');
    expect(deployment.spec.replicas).toBe(3);
    const [container] = deployment.spec.template.spec.containers;
    expect(container.readinessProbe.httpGet.path).toBe('/__sandbox/health');
    expect(container.livenessProbe.httpGet.path).toBe('/__sandbox/health');
    expect(kind('Service').spec.selector).toEqual(deployment.spec.selector.matchLabels);
  });

  it('hashes by the same key as the compose nginx.conf', () => {
    const ingress = kind('Ingress');
    expect(ingress.metadata.annotations['nginx.ingress.kubernetes.io/upstream-hash-by']).toBe('$sandbox_key');
    const snippet = kind('ConfigMap').data['http-snippet'] as string;
    expect(maps(snippet)).toHaveLength(2);
    expect(maps(snippet)).toEqual(maps(read('compose/nginx.conf')));
  });

  it('never retries a request, as the compose nginx.conf does not (proxy_next_upstream off)', () => {
    expect(read('compose/nginx.conf')).toMatch(/^\s*proxy_next_upstream off;$/m);
    const annotations = kind('Ingress').metadata.annotations as Record<string, string>;
    expect(annotations['nginx.ingress.kubernetes.io/proxy-next-upstream']).toBe('off');
    expect(annotations['nginx.ingress.kubernetes.io/proxy-next-upstream-tries']).toBe('1');
  });
});
