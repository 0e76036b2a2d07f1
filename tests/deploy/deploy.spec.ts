// Offline checks of the deployment files: the Dockerfile, .dockerignore, docker-compose.yml and k8s/.
// Nothing is built or started; Kubernetes objects are validated against their schemas with
// kubernetes-models, and compose files with the compose client when one is installed. The apps to
// look for come from the platform's one list of processes (scripts/processes.mjs), so a process
// added there must be deployable here too.
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import {
  ConfigMap,
  Namespace,
  Secret,
  Service,
  type IConfigMap,
  type IContainer,
  type INamespace,
  type IPodSpec,
  type IPodTemplateSpec,
  type ISecret,
  type IService,
} from 'kubernetes-models/v1';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1';
import { Job, type IJob } from 'kubernetes-models/batch/v1';
import { HorizontalPodAutoscaler, type IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Ingress, type IIngress } from 'kubernetes-models/networking.k8s.io/v1';
import { commonSchema, EXIT_MARGIN_MS } from '@tinkerdesk/nest-common';
import { PROCESSES, SERVICES } from '../../scripts/processes.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const K8S_DIR = join(ROOT, 'k8s');
const COMPOSE_FILE = join(ROOT, 'docker-compose.yml');
const DOCKERFILE = join(ROOT, 'Dockerfile');

/** What every deployable process must look like, wherever it is described. */
interface AppSpec {
  image: string; // tinkerdesk/<image>:latest, built from the Dockerfile with --build-arg APP=<image>
  entry: string; // the script `node` runs
  port: number;
  live: string;
  ready: string;
}
const GATEWAY_PROBES = { port: 8080, live: '/v1/health/live', ready: '/v1/health/ready' };
const SERVICE_PROBES = { port: 8081, live: '/live', ready: '/ready' };

/** The app folder a process runs from: `apps/conversion/dist/worker.js` → conversion (its image). */
function imageOf(entry: string): string {
  const app = /^apps\/([a-z0-9-]+)\/dist\/[^/]+\.js$/.exec(entry)?.[1];
  if (!app) throw new Error(`scripts/processes.mjs: entry ${entry} is not apps/<app>/dist/<file>.js`);
  return app;
}
const APPS: Record<string, AppSpec> = Object.fromEntries(
  PROCESSES.map((p) => {
    const image = imageOf(p.entry);
    return [p.name, { image, entry: p.entry, ...(image === 'gateway' ? GATEWAY_PROBES : SERVICE_PROBES) }];
  }),
);
/** One image per app folder that runs a process (the conversion worker shares the conversion image). */
const IMAGES = [...new Set(Object.values(APPS).map((a) => a.image))];

/**
 * How long a process may take to stop after SIGTERM before it exits by itself (closeOnSignals' exit
 * timer): what it waits for, plus EXIT_MARGIN_MS. A conversion worker waits for its running jobs
 * (CONVERSION_JOB_TIMEOUT_MS, default read from apps/conversion/src/config.ts), the others SHUTDOWN_GRACE_MS.
 */
function stopBudgetMs(process: string, env: Record<string, string | undefined>): number {
  if (process === 'conversion-worker') {
    const given = env['CONVERSION_JOB_TIMEOUT_MS'];
    const source = readFileSync(join(ROOT, 'apps', 'conversion', 'src', 'config.ts'), 'utf8');
    const fallback = /CONVERSION_JOB_TIMEOUT_MS: env\.int\(([\d_]+)/.exec(source)?.[1]?.replaceAll('_', '');
    if (!fallback) throw new Error('apps/conversion/src/config.ts: no default for CONVERSION_JOB_TIMEOUT_MS');
    return Number(given ?? fallback) + EXIT_MARGIN_MS;
  }
  return commonSchema.SHUTDOWN_GRACE_MS.parse('SHUTDOWN_GRACE_MS', env['SHUTDOWN_GRACE_MS']) + EXIT_MARGIN_MS;
}
/** Compose durations as docker-compose writes them: `90s`, `1m30s`, `500ms`. */
function durationMs(text: string): number {
  let total = 0;
  const parts = text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g);
  for (const [, n, unit] of parts) total += Number(n) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit as 'ms' | 's' | 'm' | 'h'];
  return total;
}
/** Every service's migrations, in the order `npm run migrate` runs them. */
const MIGRATIONS = SERVICES.map((s) => `apps/${s}/dist/migrate.js`);

describe('the list of processes (scripts/processes.mjs)', () => {
  it('names each process once, and every image has a main.js process', () => {
    expect(new Set(PROCESSES.map((p) => p.name)).size).toBe(PROCESSES.length);
    expect(IMAGES).toContain('gateway');
    for (const image of IMAGES) expect(Object.values(APPS).map((a) => a.entry)).toContain(`apps/${image}/dist/main.js`);
    for (const service of SERVICES) expect(IMAGES).toContain(service);
  });
});

// ------------------------------------------------------------------------------------------------
// Kubernetes manifests
// ------------------------------------------------------------------------------------------------

interface Manifest {
  where: string; // file#document
  apiVersion: string;
  kind: string;
  name: string;
  obj: Record<string, unknown>;
}

/** The schema model of each kind we ship; anything else is an error, not silently accepted. */
const MODELS: Record<string, (obj: unknown) => { validate(): void }> = {
  'v1/Namespace': (o) => new Namespace(o as INamespace),
  'v1/ConfigMap': (o) => new ConfigMap(o as IConfigMap),
  'v1/Secret': (o) => new Secret(o as ISecret),
  'v1/Service': (o) => new Service(o as IService),
  'apps/v1/Deployment': (o) => new Deployment(o as IDeployment),
  'batch/v1/Job': (o) => new Job(o as IJob),
  'autoscaling/v2/HorizontalPodAutoscaler': (o) => new HorizontalPodAutoscaler(o as IHorizontalPodAutoscaler),
  'networking.k8s.io/v1/Ingress': (o) => new Ingress(o as IIngress),
};

const manifestFiles = existsSync(K8S_DIR)
  ? readdirSync(K8S_DIR)
      .filter((f) => /\.ya?ml$/.test(f) && f !== 'kustomization.yaml')
      .sort()
  : [];

/** Parses every document of every manifest file; problems are collected, not thrown, so each test reports them. */
function loadManifests(): { manifests: Manifest[]; problems: string[] } {
  const manifests: Manifest[] = [];
  const problems: string[] = [];
  for (const file of manifestFiles) {
    const docs = parseAllDocuments(readFileSync(join(K8S_DIR, file), 'utf8'));
    const list = Array.isArray(docs) ? docs : [];
    list.forEach((doc, i) => {
      const where = `${file}#${i}`;
      if (doc.errors.length > 0) {
        problems.push(`${where}: YAML error: ${doc.errors.map((e) => e.message).join('; ')}`);
        return;
      }
      const obj: unknown = doc.toJS();
      if (obj === null || obj === undefined) return; // empty document
      if (typeof obj !== 'object' || Array.isArray(obj)) {
        problems.push(`${where}: not a mapping`);
        return;
      }
      const rec = obj as Record<string, unknown>;
      const metadata = rec['metadata'] as { name?: unknown } | undefined;
      manifests.push({
        where,
        apiVersion: String(rec['apiVersion']),
        kind: String(rec['kind']),
        name: String(metadata?.name),
        obj: rec,
      });
    });
  }
  return { manifests, problems };
}

const { manifests, problems: parseProblems } = loadManifests();
const ofKind = <T>(kind: string): Array<T & { where: string }> =>
  manifests.filter((m) => m.kind === kind).map((m) => ({ ...(m.obj as T), where: m.where }));

const deployments = ofKind<IDeployment>('Deployment');
const services = ofKind<IService>('Service');
const configMaps = ofKind<IConfigMap>('ConfigMap');
const secrets = ofKind<ISecret>('Secret');
const jobs = ofKind<IJob>('Job');
const hpas = ofKind<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler');
const ingresses = ofKind<IIngress>('Ingress');

const podSpecOf = (t: IPodTemplateSpec | undefined): IPodSpec => {
  if (!t?.spec) throw new Error('pod template without spec');
  return t.spec;
};
const allContainers = (spec: IPodSpec): IContainer[] => [...(spec.initContainers ?? []), ...spec.containers];
const isSubset = (sub: Record<string, string>, sup: Record<string, string>): boolean => Object.entries(sub).every(([k, v]) => sup[k] === v);

/** The container port number a probe/targetPort refers to (by name or number), or undefined. */
function resolvePort(containers: IContainer[], port: number | string | undefined): number | undefined {
  if (typeof port === 'number') return containers.some((c) => c.ports?.some((p) => p.containerPort === port)) ? port : undefined;
  for (const c of containers) {
    const hit = c.ports?.find((p) => p.name === port);
    if (hit) return hit.containerPort;
  }
  return undefined;
}

/** "64m" / "64Mi" / "1048576" -> bytes (nginx and Kubernetes quantity spellings). */
function bytes(size: string): number {
  const m = /^(\d+)\s*([kmg]i?)?b?$/i.exec(size.trim());
  if (!m) throw new Error(`not a size: ${size}`);
  const unit = (m[2] ?? '').toLowerCase().charAt(0);
  const mult = unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1;
  return Number(m[1]) * mult;
}

/** Rules every pod template (Deployments and the Job) must follow: restricted Pod Security Standard and sizing. */
function podProblems(where: string, spec: IPodSpec): string[] {
  const out: string[] = [];
  const pod = spec.securityContext;
  for (const c of allContainers(spec)) {
    const sc = c.securityContext;
    const at = `${where} container ${c.name}`;
    if (!(sc?.runAsNonRoot ?? pod?.runAsNonRoot)) out.push(`${at}: runAsNonRoot is not true`);
    if ((sc?.runAsUser ?? pod?.runAsUser) === 0) out.push(`${at}: runs as uid 0`);
    if (sc?.allowPrivilegeEscalation !== false) out.push(`${at}: allowPrivilegeEscalation must be false`);
    if (!sc?.capabilities?.drop?.includes('ALL')) out.push(`${at}: must drop ALL capabilities`);
    if (!(sc?.seccompProfile ?? pod?.seccompProfile)) out.push(`${at}: no seccompProfile`);
    if (sc?.readOnlyRootFilesystem !== true) out.push(`${at}: readOnlyRootFilesystem must be true`);
    const tmp = c.volumeMounts?.find((v) => v.mountPath === '/tmp');
    const tmpVolume = spec.volumes?.find((v) => v.name === tmp?.name);
    if (!tmpVolume?.emptyDir) out.push(`${at}: read-only root needs an emptyDir on /tmp`);
    const r = c.resources;
    for (const key of ['cpu', 'memory']) {
      if (r?.requests?.[key] === undefined) out.push(`${at}: no resources.requests.${key}`);
      if (r?.limits?.[key] === undefined) out.push(`${at}: no resources.limits.${key}`);
    }
    if (c.command !== undefined) out.push(`${at}: sets command (bypasses the tini entrypoint); use args`);
    for (const ref of c.envFrom ?? []) {
      const cm = ref.configMapRef?.name;
      const sec = ref.secretRef?.name;
      if (cm !== undefined && !configMaps.some((m) => m.metadata?.name === cm)) out.push(`${at}: unknown ConfigMap ${cm}`);
      if (sec !== undefined && !secrets.some((s) => s.metadata?.name === sec)) out.push(`${at}: unknown Secret ${sec}`);
    }
  }
  return out;
}

describe('k8s manifests', () => {
  it('has manifest files', () => {
    expect(manifestFiles.length).toBeGreaterThan(0);
  });

  it('parse as YAML', () => {
    expect(parseProblems).toEqual([]);
  });

  it('validate against their Kubernetes schemas (known kinds only)', () => {
    const problems: string[] = [];
    for (const m of manifests) {
      const model = MODELS[`${m.apiVersion}/${m.kind}`];
      if (!model) {
        problems.push(`${m.where}: unknown apiVersion/kind ${m.apiVersion}/${m.kind}`);
        continue;
      }
      try {
        model(m.obj).validate();
      } catch (e) {
        problems.push(`${m.where} (${m.kind} ${m.name}): ${(e as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('names are unique per kind and everything is namespaced to tinkerdesk', () => {
    const seen = new Set<string>();
    const problems: string[] = [];
    for (const m of manifests) {
      const key = `${m.kind}/${m.name}`;
      if (seen.has(key)) problems.push(`${m.where}: duplicate ${key}`);
      seen.add(key);
      const ns = (m.obj['metadata'] as { namespace?: string }).namespace;
      if (m.kind !== 'Namespace' && ns !== 'tinkerdesk') problems.push(`${m.where}: namespace is ${ns}`);
    }
    expect(problems).toEqual([]);
    expect(manifests.filter((m) => m.kind === 'Namespace').map((m) => m.name)).toEqual(['tinkerdesk']);
  });

  it('kustomization.yaml lists every manifest file, and only existing ones', () => {
    const kustomization = parse(readFileSync(join(K8S_DIR, 'kustomization.yaml'), 'utf8')) as {
      kind?: string;
      resources?: string[];
    };
    expect(kustomization.kind).toBe('Kustomization');
    const listed = kustomization.resources ?? [];
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(manifestFiles);
  });

  it('kustomization.yaml pins the tag of every image the Dockerfile builds, and only those', () => {
    const kustomization = parse(readFileSync(join(K8S_DIR, 'kustomization.yaml'), 'utf8')) as { images?: Array<{ name?: string }> };
    const pinned = (kustomization.images ?? []).map((i) => i.name ?? '');
    expect([...pinned].sort()).toEqual(IMAGES.map((i) => `tinkerdesk/${i}`).sort());
  });

  it('runs only images the Dockerfile builds', () => {
    const problems: string[] = [];
    for (const m of [...deployments, ...jobs]) {
      for (const c of allContainers(podSpecOf(m.spec?.template))) {
        const image = /^tinkerdesk\/([a-z0-9-]+):/.exec(c.image ?? '')?.[1];
        if (!image || !IMAGES.includes(image)) problems.push(`${m.where} container ${c.name}: image ${c.image}`);
      }
    }
    expect(problems).toEqual([]);
  });

  const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;
  (kubectl ? it : it.skip)(
    kubectl ? 'kubectl kustomize k8s builds' : 'kubectl kustomize k8s builds (SKIPPED: kubectl is not installed)',
    () => {
      const res = spawnSync('kubectl', ['kustomize', K8S_DIR], { encoding: 'utf8', timeout: 60_000 });
      if (res.status !== 0) throw new Error(`kubectl kustomize failed: ${res.stderr}`);
      const kinds = res.stdout.split(/^---$/m).filter((d) => /^kind:/m.test(d)).length;
      expect(kinds).toBe(manifests.length);
    },
    60_000,
  );

  it('has exactly one Deployment per app', () => {
    expect(deployments.map((d) => d.metadata?.name).sort()).toEqual(Object.keys(APPS).sort());
  });

  describe.each(Object.entries(APPS))('Deployment %s', (name, app) => {
    const find = (): IDeployment & { where: string } => {
      const d = deployments.find((x) => x.metadata?.name === name);
      if (!d) throw new Error(`no Deployment ${name}`);
      return d;
    };

    it('selects its own pods', () => {
      const d = find();
      const match = d.spec?.selector.matchLabels ?? {};
      expect(Object.keys(match).length).toBeGreaterThan(0);
      expect(isSubset(match, d.spec?.template.metadata?.labels ?? {})).toBe(true);
    });

    it(`runs tinkerdesk/${app.image}:latest with ${app.entry}`, () => {
      const [main] = podSpecOf(find().spec?.template).containers;
      expect(main?.image).toBe(`tinkerdesk/${app.image}:latest`);
      expect(main?.args).toEqual(['node', app.entry]);
    });

    it(`has liveness ${app.live} and readiness ${app.ready} on port ${app.port}, and resources`, () => {
      const spec = podSpecOf(find().spec?.template);
      const [main] = spec.containers;
      if (!main) throw new Error('no container');
      for (const [probe, path] of [
        [main.livenessProbe, app.live],
        [main.readinessProbe, app.ready],
      ] as const) {
        expect(probe?.httpGet?.path).toBe(path);
        expect(resolvePort(spec.containers, probe?.httpGet?.port)).toBe(app.port);
      }
      for (const side of ['requests', 'limits'] as const) {
        expect(main.resources?.[side]?.['cpu']).toBeDefined();
        expect(main.resources?.[side]?.['memory']).toBeDefined();
      }
      if (name !== 'gateway') {
        expect(main.env?.find((e) => e.name === 'HEALTH_PORT')?.value).toBe(String(app.port));
      }
    });

    it('runs non-root with a read-only root filesystem (restricted pod security)', () => {
      const d = find();
      expect(podProblems(d.where, podSpecOf(d.spec?.template))).toEqual([]);
    });

    it('has a Service whose selector picks exactly this Deployment and whose ports exist', () => {
      const d = find();
      const svc = services.find((s) => s.metadata?.name === name);
      if (!svc) throw new Error(`no Service ${name}`);
      const selector = svc.spec?.selector ?? {};
      expect(Object.keys(selector).length).toBeGreaterThan(0);
      const picked = deployments.filter((x) => isSubset(selector, x.spec?.template.metadata?.labels ?? {})).map((x) => x.metadata?.name);
      expect(picked).toEqual([name]);
      const containers = podSpecOf(d.spec?.template).containers;
      for (const p of svc.spec?.ports ?? []) {
        expect(resolvePort(containers, p.targetPort ?? p.port)).toBeDefined();
      }
    });
  });

  it('every Deployment stops within its grace: preStop sleep (the gateway, behind the Ingress) + its stop budget', () => {
    const config = configMaps[0]?.data ?? {};
    // Stated in the ConfigMap, so the budgets below are the ones that run.
    expect(config['SHUTDOWN_GRACE_MS']).toBeDefined();
    const problems: string[] = [];
    for (const name of Object.keys(APPS)) {
      const d = deployments.find((x) => x.metadata?.name === name);
      const spec = podSpecOf(d?.spec?.template);
      const [main] = spec.containers;
      const env = { ...config, ...Object.fromEntries((main?.env ?? []).map((e) => [e.name, e.value])) };
      const preStop = main?.lifecycle?.preStop;
      const sleepArgs = preStop?.exec?.command;
      const preStopMs =
        preStop?.sleep?.seconds !== undefined ? preStop.sleep.seconds * 1000 : sleepArgs?.[0] === 'sleep' ? Number(sleepArgs[1]) * 1000 : 0;
      // The gateway takes traffic through its Service: it must stay up until the endpoints have dropped it.
      if (name === 'gateway' && !(preStopMs >= 3000 && preStopMs <= 15_000)) problems.push(`${name}: preStop sleep ${preStopMs} ms`);
      const needed = preStopMs + stopBudgetMs(name, env);
      const grace = (spec.terminationGracePeriodSeconds ?? 30) * 1000;
      if (grace < needed) problems.push(`${name}: terminationGracePeriodSeconds ${grace / 1000} s < ${needed / 1000} s`);
    }
    expect(problems).toEqual([]);
  });

  it('the HorizontalPodAutoscaler targets the conversion-worker Deployment', () => {
    expect(hpas).toHaveLength(1);
    const [hpa] = hpas;
    expect(hpa?.spec?.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'conversion-worker' });
    const min = hpa?.spec?.minReplicas ?? 1;
    expect(min).toBeGreaterThanOrEqual(1);
    expect(hpa?.spec?.maxReplicas).toBeGreaterThan(min);
    expect(hpa?.spec?.metrics?.length).toBeGreaterThan(0);
    // CPU utilization targets need CPU requests on the target's containers.
    const worker = deployments.find((d) => d.metadata?.name === 'conversion-worker');
    expect(podSpecOf(worker?.spec?.template).containers.every((c) => c.resources?.requests?.['cpu'])).toBe(true);
  });

  it('the migration Job runs the four migrations in order as init containers', () => {
    expect(jobs).toHaveLength(1);
    const job = jobs[0];
    if (!job) throw new Error('no Job');
    const spec = podSpecOf(job.spec?.template);
    expect(['Never', 'OnFailure']).toContain(spec.restartPolicy);
    const init = spec.initContainers ?? [];
    expect(init.map((c) => c.args?.join(' '))).toEqual(MIGRATIONS.map((m) => `node ${m}`));
    expect(init.map((c) => c.image)).toEqual(SERVICES.map((s) => `tinkerdesk/${s}:latest`));
    expect(init.every((c) => c.envFrom?.some((r) => r.secretRef))).toBe(true);
    expect(podProblems(job.where, spec)).toEqual([]);
  });

  it('the Ingress routes to the gateway Service and admits uploads up to UPLOAD_LIMIT', () => {
    expect(ingresses).toHaveLength(1);
    const ing = ingresses[0];
    const backends = (ing?.spec?.rules ?? []).flatMap((r) => r.http?.paths ?? []).map((p) => p.backend.service);
    expect(backends.length).toBeGreaterThan(0);
    const gatewaySvc = services.find((s) => s.metadata?.name === 'gateway');
    for (const b of backends) {
      expect(b?.name).toBe('gateway');
      const ok = gatewaySvc?.spec?.ports?.some((p) => p.name === b?.port?.name || p.port === b?.port?.number);
      expect(ok).toBe(true);
    }
    const limit = Number(configMaps[0]?.data?.['UPLOAD_LIMIT'] ?? 52428800);
    const bodySize = ing?.metadata?.annotations?.['nginx.ingress.kubernetes.io/proxy-body-size'];
    expect(bodySize).toBeDefined();
    expect(bytes(bodySize ?? '0')).toBeGreaterThan(limit);
  });

  it('keeps credentials in the Secret, not in the ConfigMap', () => {
    expect(configMaps).toHaveLength(1);
    const data = configMaps[0]?.data ?? {};
    const leaks = Object.entries(data).filter(
      ([k, v]) => /SECRET|PASSWORD|PRIVATE|TOKEN|DATABASE_URL/.test(k) || /:\/\/[^/\s:@]+:[^/\s@]+@/.test(v),
    );
    expect(leaks).toEqual([]);
    expect(secrets).toHaveLength(1);
    expect(Object.keys({ ...secrets[0]?.stringData, ...secrets[0]?.data })).toContain('DATABASE_URL');
  });
});

// ------------------------------------------------------------------------------------------------
// Dockerfile (one for every app, chosen with the build argument APP)
// ------------------------------------------------------------------------------------------------

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  name: string | undefined;
  from: string;
  instructions: Instruction[];
}
interface Dockerfile {
  args: Map<string, string>; // global ARGs (before the first FROM) with their defaults
  stages: Stage[];
}

/**
 * A small Dockerfile reader: line continuations, comments, global ARG defaults, stages. `buildArgs`
 * stand for `docker build --build-arg`: they override the global ARGs named in FROM lines.
 */
function parseDockerfile(text: string, buildArgs: Record<string, string> = {}): Dockerfile {
  const logical: string[] = [];
  let current = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('#') || (line === '' && current === '')) continue;
    if (line.endsWith('\\')) {
      current += line.slice(0, -1) + ' ';
      continue;
    }
    current += line;
    if (current.trim() !== '') logical.push(current.trim());
    current = '';
  }
  if (current.trim() !== '') logical.push(current.trim());

  const args = new Map<string, string>();
  const stages: Stage[] = [];
  for (const l of logical) {
    const m = /^(\S+)\s*(.*)$/s.exec(l);
    if (!m) continue;
    const keyword = (m[1] ?? '').toUpperCase();
    const rest = m[2] ?? '';
    if (keyword === 'FROM') {
      const parts = rest.split(/\s+/).filter((p) => !p.startsWith('--'));
      const value = (v: string): string => buildArgs[v] ?? args.get(v) ?? '';
      const image = (parts[0] ?? '').replace(/\$\{?(\w+)\}?/g, (_, v: string) => value(v));
      const name = parts[1]?.toUpperCase() === 'AS' ? parts[2] : undefined;
      stages.push({ name, from: image, instructions: [] });
    } else if (stages.length === 0) {
      if (keyword === 'ARG') {
        const [k, v] = rest.split('=');
        if (k) args.set(k.trim(), (v ?? '').trim());
      }
    } else {
      stages[stages.length - 1]?.instructions.push({ keyword, args: rest });
    }
  }
  return { args, stages };
}

/** Instructions of a stage including the stages it is built FROM, base first. */
function chain(stages: Stage[], stage: Stage): { base: string; names: string[]; instructions: Instruction[] } {
  const parent = stages.find((s) => s.name !== undefined && s.name === stage.from && s !== stage);
  const own = stage.name === undefined ? [] : [stage.name];
  if (!parent) return { base: stage.from, names: own, instructions: stage.instructions };
  const up = chain(stages, parent);
  return { base: up.base, names: [...up.names, ...own], instructions: [...up.instructions, ...stage.instructions] };
}

const readDockerfile = (buildArgs: Record<string, string> = {}): Dockerfile => parseDockerfile(readFileSync(DOCKERFILE, 'utf8'), buildArgs);
/** The default target (the last stage) as built with --build-arg APP=<image>, with everything it stands on. */
function finalStage(image: string): { base: string; names: string[]; instructions: Instruction[] } {
  const { stages } = readDockerfile({ APP: image });
  const final = stages[stages.length - 1];
  if (!final) throw new Error('the Dockerfile has no stages');
  return chain(stages, final);
}
const OFFICE_PACKAGES = [
  'libreoffice-core-nogui',
  'libreoffice-writer-nogui',
  'libreoffice-calc-nogui',
  'libreoffice-impress-nogui',
  'python3-uno',
  'poppler-utils',
  'chromium',
  'fonts-liberation2',
  'fonts-dejavu-core',
];
const installs = (instructions: Instruction[]): string =>
  instructions
    .filter((i) => i.keyword === 'RUN')
    .map((i) => i.args)
    .join(' ');

describe('Dockerfile', () => {
  it('is the only Dockerfile (no per-app copies)', () => {
    expect(existsSync(DOCKERFILE)).toBe(true);
    for (const dir of ['apps', 'libs']) {
      for (const entry of readdirSync(join(ROOT, dir))) expect(existsSync(join(ROOT, dir, entry, 'Dockerfile'))).toBe(false);
    }
  });

  it('takes the app as the build argument APP, whose default is an app', () => {
    const { args } = readDockerfile();
    expect(args.has('APP')).toBe(true);
    expect(IMAGES).toContain(args.get('APP'));
  });

  it('is multi-stage, with every stage reference defined earlier, for every app', () => {
    const problems: string[] = [];
    for (const image of IMAGES) {
      const { stages } = readDockerfile({ APP: image });
      expect(stages.length).toBeGreaterThanOrEqual(2);
      stages.forEach((s, i) => {
        const earlier = new Set(stages.slice(0, i).map((x) => x.name));
        for (const ins of s.instructions.filter((x) => x.keyword === 'COPY')) {
          const from = /--from=(\S+)/.exec(ins.args)?.[1];
          if (from !== undefined && !earlier.has(from)) problems.push(`APP=${image}: COPY --from=${from} in stage ${s.name ?? i}`);
        }
        if (/\$/.test(s.from)) problems.push(`APP=${image}: FROM ${s.from} uses an unknown ARG`);
        if (stages.some((x) => x.name === s.from) && !earlier.has(s.from))
          problems.push(`APP=${image}: FROM ${s.from} before it is defined`);
      });
    }
    expect(problems).toEqual([]);
  });

  it('has a stage for every app, and builds on a stage for an app only when that app exists', () => {
    const { stages } = readDockerfile();
    const names = stages.map((s) => s.name);
    for (const image of IMAGES) {
      expect(names).toContain(image);
      expect(finalStage(image).names).toContain(image);
    }
    // A stage named os-<x> picks the system of app x: x must be an app.
    for (const name of names) {
      const app = /^os-(.+)$/.exec(name ?? '')?.[1];
      if (app !== undefined && app !== 'office') expect(IMAGES).toContain(app);
    }
  });

  it('builds with npm install + npm run build and ships production dependencies only', () => {
    const all = readDockerfile().stages.flatMap((s) => s.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args));
    expect(all.some((r) => /npm (install|ci)\b/.test(r) && !r.includes('--omit=dev'))).toBe(true);
    expect(all.some((r) => r.includes('npm run build'))).toBe(true);
    expect(all.some((r) => r.includes('--omit=dev'))).toBe(true);
  });

  describe.each(IMAGES)('--build-arg APP=%s', (image) => {
    const main = Object.values(APPS).find((a) => a.image === image && a.entry.endsWith('/main.js'));

    it('final stage: node:24-bookworm-slim, non-root, NODE_ENV=production, EXPOSE, HEALTHCHECK, CMD', () => {
      const { base, instructions } = finalStage(image);
      const last = (kw: string): string | undefined => instructions.filter((i) => i.keyword === kw).pop()?.args;
      expect(base).toBe('node:24-bookworm-slim');
      const user = last('USER');
      expect(user).toBeDefined();
      expect(['root', '0', '0:0']).not.toContain(user);
      expect(instructions.some((i) => i.keyword === 'ENV' && /\bNODE_ENV=production\b/.test(i.args))).toBe(true);
      expect(last('EXPOSE')?.split(/\s+/)).toContain(String(main?.port));
      expect(last('HEALTHCHECK')).toMatch(/^(--\S+\s+)*CMD\b/);
      expect(last('HEALTHCHECK')).toContain(main?.ready ?? '?');
      expect(JSON.parse(last('CMD') ?? 'null')).toEqual(['node', main?.entry]);
      expect(JSON.parse(last('ENTRYPOINT') ?? 'null')).toEqual(['/usr/bin/tini', '--']);
      // The runtime image gets built output only, never the raw build context.
      expect(instructions.filter((i) => i.keyword === 'COPY' && !i.args.includes('--from='))).toEqual([]);
      // Its own app's build, and no other app's.
      const apps = instructions
        .filter((i) => i.keyword === 'COPY')
        .map((i) => /\/app\/apps\/([a-z0-9-]+)/.exec(i.args)?.[1])
        .filter((a): a is string => a !== undefined && a !== 'web');
      expect(apps).toEqual([image]);
    });

    if (image === 'conversion') {
      it('installs LibreOffice with its UNO bridge, poppler and Chromium in the runtime image', () => {
        const runs = installs(finalStage(image).instructions);
        for (const pkg of [...OFFICE_PACKAGES, '--no-install-recommends']) expect(runs).toContain(pkg);
      });
    } else {
      it("does not carry the conversion workers' programs", () => {
        const runs = installs(finalStage(image).instructions);
        for (const pkg of OFFICE_PACKAGES) expect(runs).not.toContain(pkg);
      });
    }

    if (image === 'gateway') {
      it('carries the built web app', () => {
        const copies = finalStage(image).instructions.filter((i) => i.keyword === 'COPY');
        expect(copies.some((i) => /--from=\S+ \/app\/apps\/web\/dist /.test(i.args))).toBe(true);
      });
    }
  });
});

describe('.dockerignore', () => {
  it('keeps dependencies, build output, VCS data and local secrets out of the build context', () => {
    const lines = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
      .split(/\r?\n/)
      .map((l) => l.trim());
    for (const pattern of ['**/node_modules', '**/dist', '.git', '**/.env']) expect(lines).toContain(pattern);
  });
});

// ------------------------------------------------------------------------------------------------
// docker-compose.yml
// ------------------------------------------------------------------------------------------------

interface ComposeService {
  image?: string;
  build?: string | { context?: string; dockerfile?: string; target?: string; args?: Record<string, string | number> | string[] };
  command?: string | string[];
  environment?: Record<string, string | number | null> | string[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: string | string[]; disable?: boolean };
  deploy?: { replicas?: number };
  stop_grace_period?: string;
  container_name?: string;
  ports?: unknown[];
  volumes?: unknown[];
}
const loadCompose = (): { services: Record<string, ComposeService> } =>
  parse(readFileSync(COMPOSE_FILE, 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
const dependsOn = (s: ComposeService): Record<string, string | undefined> =>
  Array.isArray(s.depends_on)
    ? Object.fromEntries(s.depends_on.map((d) => [d, 'service_started']))
    : Object.fromEntries(Object.entries(s.depends_on ?? {}).map(([k, v]) => [k, v.condition]));
/** A service's build with compose's defaults filled in (dockerfile `Dockerfile`, args as a map). */
function buildOf(s: ComposeService): { context: string; dockerfile: string; target: string | undefined; args: Record<string, string> } {
  const b = typeof s.build === 'string' ? { context: s.build } : s.build;
  if (!b) throw new Error('no build section');
  const args = Array.isArray(b.args)
    ? Object.fromEntries(b.args.map((a) => [a.split('=')[0] ?? '', a.split('=').slice(1).join('=')]))
    : Object.fromEntries(Object.entries(b.args ?? {}).map(([k, v]) => [k, String(v)]));
  return { context: b.context ?? '.', dockerfile: b.dockerfile ?? 'Dockerfile', target: b.target, args };
}
const commandOf = (s: ComposeService): string => (Array.isArray(s.command) ? s.command.join(' ') : (s.command ?? ''));

/** The compose client to validate with: the `docker compose` plugin, else docker-compose; undefined when neither exists. */
function composeClient(): string[] | undefined {
  const ok = (cmd: string, args: string[]): boolean => spawnSync(cmd, args, { encoding: 'utf8', timeout: 20_000 }).status === 0;
  if (ok('docker', ['compose', 'version'])) return ['docker', 'compose'];
  if (ok('docker-compose', ['version'])) return ['docker-compose'];
  return undefined;
}

describe('docker-compose.yml', () => {
  const client = composeClient();
  (client ? it : it.skip)(
    client
      ? `passes \`${client.join(' ')} config -q\``
      : 'passes `compose config -q` (SKIPPED: no compose client; install the docker compose plugin or docker-compose)',
    () => {
      const [cmd, ...pre] = client ?? [];
      const res = spawnSync(cmd ?? 'docker-compose', [...pre, '-f', COMPOSE_FILE, 'config', '-q'], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 60_000,
      });
      if (res.status !== 0) throw new Error(`compose config failed (${res.status}): ${res.stderr}`);
      expect(res.status).toBe(0);
    },
    60_000,
  );

  it("gives every app a stop_grace_period that covers its stop budget (docker's default is 10 s)", () => {
    const { services: svcs } = loadCompose();
    const problems: string[] = [];
    for (const name of Object.keys(APPS)) {
      const s = svcs[name];
      const env = Array.isArray(s?.environment)
        ? Object.fromEntries(s.environment.map((e) => [e.split('=')[0] ?? '', e.split('=').slice(1).join('=')]))
        : Object.fromEntries(Object.entries(s?.environment ?? {}).map(([k, v]) => [k, v === null ? undefined : String(v)]));
      const grace = s?.stop_grace_period ? durationMs(s.stop_grace_period) : 10_000;
      const needed = stopBudgetMs(name, env);
      if (grace < needed) problems.push(`${name}: stop_grace_period ${grace / 1000} s < ${needed / 1000} s`);
    }
    expect(problems).toEqual([]);
  });

  it('has the infrastructure, the migrate job and every app', () => {
    const names = Object.keys(loadCompose().services);
    for (const n of ['postgres', 'nats', 'redis', 'migrate', ...Object.keys(APPS)]) expect(names).toContain(n);
  });

  it('builds every app from the Dockerfile with APP naming the app, and runs its entry point', () => {
    const { services: svcs } = loadCompose();
    for (const [name, app] of Object.entries(APPS)) {
      const s = svcs[name];
      const build = buildOf(s ?? {});
      expect(build).toMatchObject({ context: '.', dockerfile: 'Dockerfile' });
      expect(build.args['APP']).toBe(app.image);
      expect(build.target).toBeUndefined(); // the default target: the runtime of APP
      expect(s?.image).toBe(`tinkerdesk/${app.image}:latest`);
      // Either the compose command or the image's CMD runs the right script.
      const finalCmd = finalStage(app.image)
        .instructions.filter((i) => i.keyword === 'CMD')
        .pop()?.args;
      const cmd = commandOf(s ?? {}) || (JSON.parse(finalCmd ?? '[]') as string[]).join(' ');
      expect(cmd).toBe(`node ${app.entry}`);
    }
  });

  it('passes only the build arguments the Dockerfile declares, and APP only with the name of an app', () => {
    const { services: svcs } = loadCompose();
    const declared = readDockerfile().args;
    const problems: string[] = [];
    for (const [name, s] of Object.entries(svcs)) {
      if (s.build === undefined) continue;
      const build = buildOf(s);
      if (build.dockerfile !== 'Dockerfile') problems.push(`${name}: builds from ${build.dockerfile}`);
      for (const arg of Object.keys(build.args)) if (!declared.has(arg)) problems.push(`${name}: unknown build argument ${arg}`);
      const app = build.args['APP'];
      if (app !== undefined && !IMAGES.includes(app)) problems.push(`${name}: APP=${app} is not an app`);
      if (app !== undefined && s.image !== `tinkerdesk/${app}:latest`) problems.push(`${name}: APP=${app} tagged ${s.image}`);
    }
    expect(problems).toEqual([]);
  });

  it('runs the four migrations in order in a one-shot migrate service built from an existing stage', () => {
    const m = loadCompose().services['migrate'];
    const build = buildOf(m ?? {});
    const { stages } = parseDockerfile(readFileSync(join(ROOT, build.dockerfile), 'utf8'), build.args);
    expect(build.target).toBeDefined();
    expect(stages.map((s) => s.name)).toContain(build.target);
    const cmd = commandOf(m ?? {});
    const positions = MIGRATIONS.map((p) => cmd.indexOf(p));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(cmd).toMatch(/&&|set -e/); // stop at the first failure
    expect(dependsOn(m ?? {})['postgres']).toBe('service_healthy');
  });

  it('starts app services after migrate completed and after healthy infrastructure', () => {
    const { services: svcs } = loadCompose();
    const problems: string[] = [];
    for (const [name, s] of Object.entries(svcs)) {
      for (const [dep, condition] of Object.entries(dependsOn(s))) {
        if (!svcs[dep]) problems.push(`${name} depends on unknown ${dep}`);
        if (condition === 'service_healthy' && !svcs[dep]?.healthcheck?.test)
          problems.push(`${name} waits for ${dep} to be healthy but it has no healthcheck`);
      }
      if (name in APPS && !s.healthcheck?.test) problems.push(`${name} has no healthcheck`);
    }
    for (const name of Object.keys(APPS).filter((n) => APPS[n]?.image !== 'gateway')) {
      const deps = dependsOn(svcs[name] ?? {});
      if (deps['migrate'] !== 'service_completed_successfully') problems.push(`${name} must wait for migrate to complete`);
      if (deps['postgres'] !== 'service_healthy' || deps['nats'] !== 'service_healthy')
        problems.push(`${name} must wait for healthy postgres and nats`);
    }
    expect(problems).toEqual([]);
  });

  it('points every app at the compose hosts and the in-container health port', () => {
    const { services: svcs } = loadCompose();
    const problems: string[] = [];
    for (const name of Object.keys(APPS)) {
      const env = svcs[name]?.environment;
      const vars = Array.isArray(env)
        ? Object.fromEntries(env.map((e) => [e.split('=')[0], e.split('=').slice(1).join('=')]))
        : (env ?? {});
      for (const [k, v] of Object.entries(vars)) {
        const host = /^[a-z]+:\/\/(?:[^@/]*@)?([^:/]+)/.exec(String(v))?.[1];
        if (/_URL$/.test(k) && k !== 'PUBLIC_URL' && host && !svcs[host]) problems.push(`${name}.${k} points at ${host}`);
      }
      if (!String(vars['NATS_URL'] ?? '').startsWith('nats://nats:')) problems.push(`${name}: NATS_URL`);
      if (name !== 'gateway' && String(vars['HEALTH_PORT']) !== '8081') problems.push(`${name}: HEALTH_PORT must be 8081`);
      if (name !== 'gateway' && !String(vars['DATABASE_URL'] ?? '').includes('@postgres:')) problems.push(`${name}: DATABASE_URL`);
    }
    expect(problems).toEqual([]);
  });

  it('scales conversion-worker by replicas', () => {
    const w = loadCompose().services['conversion-worker'];
    expect(Number.isInteger(w?.deploy?.replicas)).toBe(true);
    expect(w?.deploy?.replicas).toBeGreaterThanOrEqual(2);
    expect(w?.container_name).toBeUndefined(); // a fixed name forbids replicas
    expect(w?.ports ?? []).toEqual([]); // published ports would collide between replicas
  });

  it('keeps infrastructure state in volumes, NATS with JetStream', () => {
    const { services: svcs } = loadCompose();
    const nats = svcs['nats'];
    const cmd = commandOf(nats ?? {});
    expect(cmd).toMatch(/(^|\s)(-js|--jetstream)(\s|$)/);
    const store = /(?:-sd|--store_dir)\s+(\S+)/.exec(cmd)?.[1];
    expect(store).toBeDefined();
    expect((nats?.volumes ?? []).map(String).some((v) => v.endsWith(`:${store}`))).toBe(true);
    expect(svcs['postgres']?.healthcheck?.test).toBeDefined();
    expect((svcs['postgres']?.volumes ?? []).map(String).some((v) => v.endsWith(':/var/lib/postgresql/data'))).toBe(true);
    expect(svcs['redis']?.healthcheck?.test).toBeDefined();
  });
});
