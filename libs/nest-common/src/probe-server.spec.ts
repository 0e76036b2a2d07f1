import { afterEach, describe, expect, it } from '@jest/globals';
import { startProbeServer, type ProbeServer } from './probe-server.js';

let probes: ProbeServer | undefined;
afterEach(async () => {
  await probes?.close();
  probes = undefined;
});

async function get(port: number, path: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: res.status, body: await res.text() };
}

describe('the probe server (HEALTH_PORT)', () => {
  it('answers /live 200 and /ready as the readiness check says', async () => {
    let up = true;
    probes = startProbeServer(0, async () => up);
    const { port } = await probes.listening;
    expect(await get(port, '/live')).toEqual({ status: 200, body: '{"status":"up"}' });
    expect(await get(port, '/ready')).toEqual({ status: 200, body: '{"status":"up"}' });
    up = false;
    expect(await get(port, '/ready')).toEqual({ status: 503, body: '{"status":"down"}' });
  });

  it('a readiness check that throws is not ready', async () => {
    probes = startProbeServer(0, () => Promise.reject(new Error('database down')));
    const { port } = await probes.listening;
    expect((await get(port, '/ready')).status).toBe(503);
  });

  it('once stopping, /ready answers 503 at once without asking the check, /live still 200, until closed', async () => {
    let asked = 0;
    probes = startProbeServer(0, () => {
      asked += 1;
      return true;
    });
    const { port } = await probes.listening;
    expect((await get(port, '/ready')).status).toBe(200);
    probes.stopping();
    expect(await get(port, '/ready')).toEqual({ status: 503, body: '{"status":"down","reason":"stopping"}' });
    expect((await get(port, '/live')).status).toBe(200);
    expect(asked).toBe(1);
    await probes.close();
    await expect(fetch(`http://127.0.0.1:${port}/live`)).rejects.toThrow();
  });
});
