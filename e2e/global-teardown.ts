import pg from 'pg';

/** Drops the run's throwaway database once the platform has stopped. */
export default async function globalTeardown(): Promise<void> {
  const run = process.env.E2E_RUN_ID;
  if (!run) return;
  const client = new pg.Client({ connectionString: 'postgres://postgres@localhost:5432/postgres' });
  await client.connect();
  try {
    // The web server is stopped after this hook in some Playwright versions: FORCE ends its sessions.
    await client.query(`DROP DATABASE IF EXISTS "tinkerdesk_e2e_${run}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
