import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Loads the queries under `queryKey` again after something changed on the server. Loads in flight are
 * cancelled first: TanStack Query's invalidation only waits for a load in flight when the query has no
 * data yet (its first load), and that load may have been answered before the change (Billing opened on
 * the way back from the card page kept showing no card; a share arriving during the first load of the
 * terminals was missed).
 */
export async function reload(client: QueryClient, queryKey: QueryKey): Promise<void> {
  await client.cancelQueries({ queryKey });
  await client.invalidateQueries({ queryKey });
}
