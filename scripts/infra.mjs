// Reachability of the infrastructure the platform needs, with one clear line when one is down.
import net from 'node:net';

const HOW_TO_START = {
  PostgreSQL: 'start it with `pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`',
  NATS: 'start it with `nats-server -js -p 4222 &`',
  Redis: 'start it with `redis-server --daemonize yes`',
};

function probe(host, port, timeoutMs = 1500) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function target(url, defaultPort) {
  const u = new URL(url);
  return { host: u.hostname || 'localhost', port: Number(u.port || defaultPort) };
}

/** Returns the lines for what is unreachable (empty when all is well). */
export async function checkInfrastructure(env = process.env) {
  const checks = [
    ['PostgreSQL', 'DATABASE_URL', env.DATABASE_URL ?? 'postgres://postgres@localhost:5432/tinkerdesk', 5432],
    ['NATS', 'NATS_URL', env.NATS_URL ?? 'nats://localhost:4222', 4222],
    ['Redis', 'REDIS_URL', env.REDIS_URL ?? 'redis://localhost:6379', 6379],
  ];
  const problems = [];
  for (const [name, variable, url, port] of checks) {
    const { host, port: p } = target(url, port);
    if (!(await probe(host, p))) {
      problems.push(
        `${name} is not reachable at ${host}:${p} (${variable}): ${HOW_TO_START[name]}, or run \`docker compose up -d postgres nats redis\``,
      );
    }
  }
  return problems;
}

/** The JetStream streams of a test run (`t<8 hex>_…`, `e2e<8 hex>_…`, their object stores `OBJ_…`). */
const TEST_STREAM = /^(OBJ_)?(t|e2e)[0-9a-f]{8}_/;

/**
 * Deletes the JetStream streams that test runs killed before their clean-up left behind, once they are
 * older than `olderThanMs` (a run still going is younger). JetStream reserves each object store's cap on
 * its disk, so a few stale ones make every later run's stores refuse to open ("insufficient storage
 * resources available"). Returns how many were deleted; NATS being unreachable is reported elsewhere.
 */
export async function sweepStaleTestStreams(env = process.env, olderThanMs = 3 * 3600_000) {
  const { connect } = await import('@nats-io/transport-node');
  const { jetstreamManager } = await import('@nats-io/jetstream');
  let nc;
  try {
    nc = await connect({ servers: env.NATS_URL ?? 'nats://localhost:4222', timeout: 2000 });
  } catch {
    return 0;
  }
  try {
    const jsm = await jetstreamManager(nc);
    const stale = [];
    for await (const stream of jsm.streams.list()) {
      if (TEST_STREAM.test(stream.config.name) && Date.now() - new Date(stream.created).getTime() > olderThanMs)
        stale.push(stream.config.name);
    }
    for (const name of stale) await jsm.streams.delete(name);
    return stale.length;
  } finally {
    await nc.close();
  }
}
