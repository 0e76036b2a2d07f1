/**
 * Answers the gateway wrote into the page it sent (`<script type="application/json" id="…">`, never run:
 * apps/gateway/src/web/app-page.ts, jsonScript): a shop's read on a shop's page (early-shop.ts), the
 * signed-in visitor's profile on /account (session/early-profile.ts). Part of the entry chunk: keep it
 * tiny and dependency-free.
 */

/** The value the page holds under `id`; undefined when it has none or it does not parse. */
export function inlineJson(id: string): unknown {
  const text = typeof document === 'undefined' ? undefined : document.getElementById(id)?.textContent;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** An answer the page already holds, as the response its request would have had. */
export function answered(status: number, body: unknown): Promise<Response> {
  return Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
}
