// The two statements of a service's products read (a service, to check it is the user's, then its active
// products) and the JSON they answer, as commerce answers them: shared by the reference
// (storefront-reference.mjs), the architecture's floor (floor-service.mjs) and read-hops.mjs, so every
// server of the benchmarks makes the same queries and writes the same bytes.
export const SERVICE_SQL = 'SELECT "id", "user_id", "vendor" FROM "commerce"."service" WHERE "id" = $1';
const PRODUCT_COLUMNS = `"id", "service_id", "user_id", "name", "description", "price", "currency", "image", "uploaded_image", "active", "shipping", "created", "modified"`;
export const PRODUCTS_SQL = `SELECT ${PRODUCT_COLUMNS} FROM "commerce"."product" WHERE "service_id" = $1 AND "active" ORDER BY "created" ASC, "id" ASC`;

/** The answer's body when the service is not the user's (or does not exist). */
export const NOT_FOUND = { success: false, error: 'NOT_FOUND', detail: 'no such service' };

/** The answer's body: the products as commerce's view shows them. */
function body(productRows) {
  const products = productRows.map((p) => ({
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
  return { success: true, products };
}

const owns = (found, userId) => found.rowCount !== 0 && found.rows[0].user_id === userId;

/** The body of the read, the statements one after the other (the reference); undefined when not the user's. */
export async function productsOneAfterTheOther(pool, userId, serviceId) {
  const found = await pool.query(SERVICE_SQL, [serviceId]);
  if (!owns(found, userId)) return undefined;
  return body((await pool.query(PRODUCTS_SQL, [serviceId])).rows);
}

/** The same, the statements side by side as commerce makes them (the check still decides the answer). */
export async function productsSideBySide(pool, userId, serviceId) {
  const [found, rows] = await Promise.all([pool.query(SERVICE_SQL, [serviceId]), pool.query(PRODUCTS_SQL, [serviceId])]);
  return owns(found, userId) ? body(rows.rows) : undefined;
}
