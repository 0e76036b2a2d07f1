import { createBrowserRouter, RouterProvider, useLocation } from 'react-router-dom';
import { AccountPage, BillingPage } from '../features/account/pages/AccountPages';
import { LoginPage } from '../features/auth/pages/LoginPage';
import { OAuthCallbackPage } from '../features/auth/pages/OAuthCallbackPage';
import { HardwarePage } from '../features/hardware/pages/HardwarePage';
import { ContactPage } from '../features/info/pages/ContactPage';
import { HomePage } from '../features/info/pages/HomePage';
import { AboutPage, FaqPage, HelpPage, PricingPage, PrivacyPage, SecurityPage, TermsPage } from '../features/info/pages/InfoPages';
import { NotFoundPage } from '../features/info/pages/NotFoundPage';
import { SearchPage } from '../features/info/pages/SearchPage';
import { PATHS } from '../routes/paths';
import { toolForPath } from '../tools/registry';
import { ToolPage } from '../tools/ToolPage';
import { ToolsIndexPage } from '../tools/ToolsIndexPage';
import { Layout } from './Layout';

/** Tool routes come from the registry; anything else unknown is the 404 page. */
function ToolOrNotFound() {
  const { pathname } = useLocation();
  const tool = toolForPath(pathname);
  return tool ? <ToolPage key={tool.id} tool={tool} /> : <NotFoundPage />;
}

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
 */
const router = createBrowserRouter([
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
      { path: PATHS.account, element: <AccountPage /> },
      { path: `${PATHS.account}/*`, element: <AccountPage /> },
      { path: PATHS.billing, element: <BillingPage /> },
      { path: PATHS.hardware, element: <HardwarePage /> },
      { path: PATHS.tools, element: <ToolsIndexPage /> },
      { path: PATHS.notFound, element: <NotFoundPage /> },
      { path: '*', element: <ToolOrNotFound /> },
    ],
  },
]);

export function App() {
  return <RouterProvider router={router} />;
}
