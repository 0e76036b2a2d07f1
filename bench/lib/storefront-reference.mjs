// The reference server of bench/storefront-read.mjs, in a process of its own (so its CPU time is its own):
// a bare node:http server making the two queries commerce makes for a service's products (the service,
// then its active products) on the same database, and answering the same JSON. DATABASE_URL names the
// database; it tells its parent its port over IPC.
import { createServer } from 'node:http';
import pg from 'pg';
import { NOT_FOUND, productsOneAfterTheOther } from './products-read.mjs';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const notFound = JSON.stringify(NOT_FOUND);
const reference = createServer(async (req, res) => {
  try {
    const [, userId, sid] = /^\/v1\/users\/([^/]+)\/services\/([^/]+)\/products$/.exec(req.url ?? '') ?? [];
    const answer = await productsOneAfterTheOther(pool, userId, sid);
    if (!answer) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(notFound);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  } catch (error) {
    res.writeHead(500).end(String(error));
  }
});
reference.listen(0, '127.0.0.1', () => process.send?.({ port: reference.address().port }));
process.on('disconnect', () => {
  reference.close();
  void pool.end();
});
