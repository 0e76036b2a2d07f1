/**
 * For component tests of the commerce pages: the gateway faked and the session checked before the
 * pages load, and routes rendered at a path with a fresh TanStack Query cache (failures show at once,
 * as in the app) and the router. Never imported by the app.
 */
import { jest } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ComponentType, ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { installGateway } from '../../../shared/gateway.fake';
import type { Profile } from '../../../shared/session/types';

/**
 * Run before the page's module is imported: fakes the gateway, runs the app's start-up check of the
 * session (signed in with `token`, else signed out: no token kept in this browser), and stands in for
 * the not-found page, which pulls in the tool registry (Vite's import.meta.glob) that Jest cannot load.
 */
export async function preparePages(gateway: (request: Request) => Promise<Response>, token?: string): Promise<void> {
  installGateway(gateway);
  const { session } = await import('../../../shared/session/session');
  if (token) await session.adopt(token);
  await session.start();
  jest.unstable_mockModule('../../info/pages/NotFoundPage', () => ({
    NotFoundPage: ({ title = 'Page not found' }: { title?: string }) => <h1>{title}</h1>,
  }));
}

/**
 * Prepares the pages (as preparePages), signs `profile` in the way a sign-in does (its answer carries
 * no services), then loads Account → Selling: answers the section to render.
 */
export async function prepareSelling(gateway: (request: Request) => Promise<Response>, profile: Profile): Promise<ComponentType> {
  await preparePages(gateway);
  const { session } = await import('../../../shared/session/session');
  await session.login({ token: 'signed-in', profile, verified: true }, { broadcast: false });
  return (await import('../components/SellingSection')).SellingSection;
}

/** A product as the gateway answers it (GET …/products, the storefront): the fields a test names, the rest plain. */
export const productAnswer = (fields: { id: string; serviceId: string; userId: string; name: string; price: number }) => ({
  description: '',
  currency: 'usd',
  image: null,
  images: null,
  active: true,
  shipping: null,
  created: '2026-11-01T10:00:00.000Z',
  modified: '2026-11-01T10:00:00.000Z',
  ...fields,
});

/** An order as the gateway answers it (GET /v1/orders/{id}): a paid Poster of "Print shop" without a receipt, with `fields` over it. */
export const orderAnswer = (fields: Record<string, unknown> = {}) => ({
  id: 'order-1',
  state: 'paid',
  serviceId: 's1',
  serviceName: 'Print shop',
  sellerName: 'Riso Corner',
  sellerId: 'seller-1',
  provider: 'sandbox',
  vendor: 'digital',
  email: 'ada@example.com',
  note: '',
  share: false,
  items: [{ productId: 'p1', name: 'Poster', description: 'A2, matte', quantity: 1, price: 1250, amount: 1250 }],
  amount: 1250,
  currency: 'usd',
  shipping: null,
  failure: null,
  receipt: null,
  replies: [],
  latePayments: [],
  role: 'buyer',
  created: '2026-11-20T10:00:00.000Z',
  modified: '2026-11-20T10:05:00.000Z',
  paidAt: '2026-11-20T10:05:00.000Z',
  fulfilledAt: null,
  fulfilNote: null,
  refundedAmount: 0,
  refunds: [],
  ...fields,
});

export function renderRoutes(path: string, routes: Record<string, ReactElement>) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          {Object.entries(routes).map(([route, element]) => (
            <Route key={route} path={route} element={element} />
          ))}
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}
