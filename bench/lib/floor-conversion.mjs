// The conversion's floor (docs/architecture.md, "A conversion job's way, and what small jobs cost"):
// the architecture the platform converts on (an HTTP process taking a multipart upload, Redis holding
// the bytes, a BullMQ queue, a worker in another process running the engine, the answer written when
// the job completes) with none of the platform's code around the engine. Two processes:
// floor-conversion-http.mjs and floor-conversion-worker.mjs, on a queue and key prefix of their own.
import { fork } from 'node:child_process';

function started(file, env) {
  const child = fork(new URL(file, import.meta.url), [], { env: { ...process.env, ...env } });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ child, message }));
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code} before it was ready`)));
  });
}

/**
 * Starts the floor's worker, then its HTTP half on `port` (0: any); answers its URL, pids and `close()`.
 * With `inline`, the upload travels in the queue entry itself (base64 in the job's data) instead of a
 * Redis key of its own: what carrying a tiny input inline could save, on the bare architecture. With
 * `http: 'nest'`, the HTTP half is a bare Nest app (Express, multer) instead of node:http and busboy.
 */
export async function startConversionFloor({ redisUrl, prefix, port = 0, inline = false, http: mode = 'bare' }) {
  // Under the platform's prefix: its cleanup removes the retained job records.
  const env = {
    REDIS_URL: redisUrl,
    PREFIX: `${prefix}:floor`,
    QUEUE: `floor-convert-${mode}${inline ? '-inline' : ''}`,
    INLINE: inline ? '1' : '',
    HTTP: mode,
  };
  const worker = await started('./floor-conversion-worker.mjs', env);
  const http = await started('./floor-conversion-http.mjs', { ...env, PORT: String(port) });
  return {
    url: `http://127.0.0.1:${http.message.port}`,
    pids: { http: http.child.pid, worker: worker.child.pid },
    /** Stops both processes; resolves once they have exited (the platform's cleanup of the prefix comes after). */
    close: () =>
      Promise.all(
        [http.child, worker.child].map((child) => {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.disconnect();
          return exited;
        }),
      ),
  };
}

/** One upload through the floor; answers the converted file's bytes. */
export async function floorConvert(url, bytes, filename, to, extra = {}) {
  const form = new FormData();
  form.set('to', to);
  for (const [k, v] of Object.entries(extra)) form.set(k, v);
  form.set('file', new Blob([bytes]), filename);
  const res = await fetch(`${url}/convert`, { method: 'POST', body: form });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200)
    throw new Error(`the floor answered ${res.status} (${res.headers.get('content-type')}): ${body.subarray(0, 200).toString()}`);
  return body;
}
