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
