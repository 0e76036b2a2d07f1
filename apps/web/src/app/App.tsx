import { isValidElement, type ComponentType, type ReactElement } from 'react';
import { createBrowserRouter, RouterProvider, useLocation } from 'react-router-dom';
import { LINK_ROUTES } from '@tinkerdesk/contracts/web';
import { PATHS } from '../routes/paths';
import { preloadableLazy } from '../shared/preloadable-lazy';
import { toolForPath } from '../tools/registry';
import { ToolPage } from '../tools/ToolPage';
import { Layout } from './Layout';
import { Providers } from './providers';

/**
 * A page module's named export as a lazily loaded component: every page is its own chunk, loaded
 * when its route is first shown (pages of one module, such as the information pages, share one).
 * The entry keeps only the layout, the router, the session and the tool registry's metadata.
 * `preload()` loads it ahead (shared/preloadable-lazy.ts).
 */
function lazyPage<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return preloadableLazy<object>(() => load().then((module) => ({ default: module[name] })));
}

const infoPages = () => import('../features/info/pages/InfoPages');
const accountPages = () => import('../features/account/pages/AccountPages');
const HomePage = lazyPage(() => import('../features/info/pages/HomePage'), 'HomePage');
const HelpPage = lazyPage(infoPages, 'HelpPage');
const PricingPage = lazyPage(infoPages, 'PricingPage');
const AboutPage = lazyPage(infoPages, 'AboutPage');
const FaqPage = lazyPage(infoPages, 'FaqPage');
const TermsPage = lazyPage(infoPages, 'TermsPage');
const PrivacyPage = lazyPage(infoPages, 'PrivacyPage');
const SecurityPage = lazyPage(infoPages, 'SecurityPage');
const ContactPage = lazyPage(() => import('../features/info/pages/ContactPage'), 'ContactPage');
const SearchPage = lazyPage(() => import('../features/info/pages/SearchPage'), 'SearchPage');
const NotFoundPage = lazyPage(() => import('../features/info/pages/NotFoundPage'), 'NotFoundPage');
const LoginPage = lazyPage(() => import('../features/auth/pages/LoginPage'), 'LoginPage');
const OAuthCallbackPage = lazyPage(() => import('../features/auth/pages/OAuthCallbackPage'), 'OAuthCallbackPage');
const ConsentPage = lazyPage(() => import('../features/oauth/pages/ConsentPage'), 'ConsentPage');
const AccountPage = lazyPage(accountPages, 'AccountPage');
const BillingPage = lazyPage(() => import('../features/commerce/pages/BillingPage'), 'BillingPage');
const planPages = () => import('../features/commerce/pages/PlanPages');
const PlanNewPage = lazyPage(planPages, 'PlanNewPage');
const PlanPage = lazyPage(planPages, 'PlanPage');
const HardwarePage = lazyPage(() => import('../features/hardware/pages/HardwarePage'), 'HardwarePage');
const ToolsIndexPage = lazyPage(() => import('../tools/ToolsIndexPage'), 'ToolsIndexPage');
const orderPages = () => import('../features/commerce/pages/OrderPages');
const StorefrontPage = lazyPage(() => import('../features/commerce/pages/StorefrontPage'), 'StorefrontPage');
const ShopPage = lazyPage(() => import('../features/commerce/pages/StorefrontPage'), 'ShopPage');
const SandboxPayPage = lazyPage(() => import('../features/commerce/pages/SandboxPayPage'), 'SandboxPayPage');
const OrderPage = lazyPage(orderPages, 'OrderPage');
const OrderReturnPage = lazyPage(orderPages, 'OrderReturnPage');
const ReceiptPage = lazyPage(orderPages, 'ReceiptPage');
const RequestPage = lazyPage(() => import('../features/commerce/pages/RequestPage'), 'RequestPage');
const SellerOrderPage = lazyPage(() => import('../features/commerce/pages/SellerOrderPage'), 'SellerOrderPage');

/** The account and billing dashboards: their own path and each section's (any other /account/… path is a 404). */
const ACCOUNT_PATHS = [
  PATHS.account,
  PATHS.accountProfile,
  PATHS.accountSelling,
  PATHS.accountOrders,
  PATHS.accountTerminals,
  PATHS.accountFiles,
  PATHS.accountApps,
];
const BILLING_PATHS = [
  PATHS.billing,
  PATHS.billingCards,
  PATHS.billingPlans,
  PATHS.billingRequests,
  PATHS.billingReceipts,
  PATHS.billingTimeline,
];
const dashboardRoutes = (paths: readonly string[], element: ReactElement) => paths.map((path) => ({ path, element }));

/** Tool routes come from the registry; anything else unknown is the 404 page. */
function ToolOrNotFound() {
  const { pathname } = useLocation();
  const tool = toolForPath(pathname);
  return tool ? <ToolPage key={tool.id} tool={tool} /> : <NotFoundPage />;
}
// The tool's own page (or the 404 page) ahead of the first render, as for the other routes.
ToolOrNotFound.preload = () => {
  const tool = toolForPath(location.pathname);
  return tool ? (tool.page?.preload() ?? Promise.resolve()) : NotFoundPage.preload();
};

/** A failure of the layout itself (the boundary inside the layout catches page failures). */
function RootError() {
  return (
    <main id="main" className="page status-page" role="alert">
      <h1>An error occurred</h1>
      <p>
        <a className="button button-primary" href="/">
          Go to the home page
        </a>
      </p>
    </main>
  );
}

/**
 * Browser history routing (createBrowserRouter: BrowserRouter with an errorElement). Static routes
 * come from routes/paths.ts; tool routes from the tool registry (the catch-all looks them up).
 * Made on first use (`appRouter()`): boot.tsx makes it in a task of its own, after this module's
 * evaluation, since reading the routes and matching the address took about 20 ms of a slow
 * machine's start-up (80 ms on a phone four times slower).
 */
let router: ReturnType<typeof createBrowserRouter> | undefined;

export const appRouter = () =>
  (router ??= createBrowserRouter([
    {
      element: <Layout />,
      errorElement: <RootError />,
      children: [
        { path: PATHS.root, element: <HomePage /> },
        { path: PATHS.home, element: <HomePage /> },
        { path: PATHS.help, element: <HelpPage /> },
        { path: PATHS.pricing, element: <PricingPage /> },
        { path: PATHS.contact, element: <ContactPage /> },
        { path: PATHS.about, element: <AboutPage /> },
        { path: PATHS.faq, element: <FaqPage /> },
        { path: PATHS.terms, element: <TermsPage /> },
        { path: PATHS.privacy, element: <PrivacyPage /> },
        { path: PATHS.security, element: <SecurityPage /> },
        { path: PATHS.search, element: <SearchPage /> },
        { path: PATHS.login, element: <LoginPage /> },
        { path: PATHS.oauthCallback, element: <OAuthCallbackPage /> },
        { path: PATHS.oauthConsent, element: <ConsentPage /> },
        ...dashboardRoutes(ACCOUNT_PATHS, <AccountPage />),
        { path: LINK_ROUTES.sellerOrder, element: <SellerOrderPage /> },
        ...dashboardRoutes(BILLING_PATHS, <BillingPage />),
        { path: LINK_ROUTES.newPlan, element: <PlanNewPage /> },
        { path: LINK_ROUTES.plan, element: <PlanPage /> },
        { path: LINK_ROUTES.storefront, element: <StorefrontPage /> },
        { path: LINK_ROUTES.shop, element: <ShopPage /> },
        { path: LINK_ROUTES.sandboxPay, element: <SandboxPayPage /> },
        { path: LINK_ROUTES.order, element: <OrderPage /> },
        { path: LINK_ROUTES.orderReturn, element: <OrderReturnPage /> },
        { path: LINK_ROUTES.receipt, element: <ReceiptPage /> },
        { path: LINK_ROUTES.request, element: <RequestPage /> },
        { path: PATHS.hardware, element: <HardwarePage /> },
        { path: PATHS.tools, element: <ToolsIndexPage /> },
        { path: PATHS.notFound, element: <NotFoundPage /> },
        { path: '*', element: <ToolOrNotFound /> },
      ],
    },
  ]));

/**
 * Loads the page module of the route being opened (a failure is left to the page's own first render,
 * which shows the error as any other load failure): the first render then has the page at once.
 */
export async function loadCurrentPage(): Promise<void> {
  const element = appRouter().state.matches.at(-1)?.route.element;
  const type: unknown = isValidElement(element) ? element.type : undefined;
  const preload = (typeof type === 'object' || typeof type === 'function') && type !== null && 'preload' in type ? type.preload : undefined;
  if (typeof preload === 'function') await Promise.resolve(preload()).catch(() => undefined);
}

export function App() {
  return (
    <Providers>
      <RouterProvider router={appRouter()} />
    </Providers>
  );
}
