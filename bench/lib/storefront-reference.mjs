// The reference server of bench/storefront-read.mjs, in a process of its own (so its CPU time is its own):
// a bare node:http server making the two queries commerce makes for a service's products (the service,
// then its active products) on the same database, and answering the same JSON. DATABASE_URL names the
// database; it tells its parent its port over IPC.
import { createServer } from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const PRODUCT_COLUMNS = `"id", "service_id", "user_id", "name", "description", "price", "currency", "image", "uploaded_image", "active", "shipping", "created", "modified"`;
const reference = createServer(async (req, res) => {
  try {
    const [, userId, sid] = /^\/v1\/users\/([^/]+)\/services\/([^/]+)\/products$/.exec(req.url ?? '') ?? [];
    const found = await pool.query('SELECT "id", "user_id", "vendor" FROM "commerce"."service" WHERE "id" = $1', [sid]);
    if (found.rowCount === 0 || found.rows[0].user_id !== userId) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"success":false,"error":"NOT_FOUND","detail":"no such service"}');
      return;
    }
    const rows = await pool.query(
      `SELECT ${PRODUCT_COLUMNS} FROM "commerce"."product" WHERE "service_id" = $1 AND "active" ORDER BY "created" ASC, "id" ASC`,
      [sid],
    );
    const products = rows.rows.map((p) => ({
      id: p.id,
      serviceId: p.service_id,
      userId: p.user_id,
      name: p.name,
      description: p.description,
      price: p.price,
      currency: p.currency,
      image: p.image,
      images: null,
      active: p.active,
      shipping: p.shipping,
      created: p.created.toISOString(),
      modified: p.modified.toISOString(),
    }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, products }));
  } catch (error) {
    res.writeHead(500).end(String(error));
  }
});
reference.listen(0, '127.0.0.1', () => process.send?.({ port: reference.address().port }));
process.on('disconnect', () => {
  reference.close();
  void pool.end();
});
