import { describe, expect, it } from '@jest/globals';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { reload } from './query';

/**
 * A list whose first load the server answered before a change, and which arrives after it: the load in
 * flight holds the old list. Returns the client, the observer watching the list and the server's answers.
 */
function slowFirstLoad() {
  const answers: string[] = [];
  let served = 0;
  let releaseFirst: () => void = () => undefined;
  const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
  let server = 'no card';
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const observer = new QueryObserver(client, {
    queryKey: ['billing', 'instruments'],
    queryFn: async ({ signal }) => {
      const answer = server; // read when the request reaches the server
      if (served++ === 0) await firstHeld;
      if (signal.aborted) throw new Error('cancelled');
      answers.push(answer);
      return answer;
    },
  });
  const unsubscribe = observer.subscribe(() => undefined);
  return {
    client,
    observer,
    answers,
    change: () => (server = 'Visa 4242'),
    releaseFirst,
    close: () => {
      unsubscribe();
      client.clear();
    },
  };
}

async function settled(observer: { getCurrentResult(): { fetchStatus: string; data?: string } }): Promise<string | undefined> {
  for (let i = 0; i < 100 && observer.getCurrentResult().fetchStatus !== 'idle'; i++) await new Promise((r) => setTimeout(r, 5));
  return observer.getCurrentResult().data;
}

describe('reload', () => {
  it('shows the change even when it lands during the first load', async () => {
    const list = slowFirstLoad();
    list.change();
    const reloaded = reload(list.client, ['billing']);
    list.releaseFirst();
    await reloaded;
    expect(await settled(list.observer)).toBe('Visa 4242');
    list.close();
  });

  it('(why: invalidation alone keeps the first load’s old answer)', async () => {
    const list = slowFirstLoad();
    list.change();
    const invalidated = list.client.invalidateQueries({ queryKey: ['billing'] });
    list.releaseFirst();
    await invalidated;
    expect(await settled(list.observer)).toBe('no card');
    list.close();
  });

  it('reloads a list that has its data', async () => {
    const list = slowFirstLoad();
    list.releaseFirst();
    expect(await settled(list.observer)).toBe('no card');
    list.change();
    await reload(list.client, ['billing']);
    expect(await settled(list.observer)).toBe('Visa 4242');
    list.close();
  });
});
