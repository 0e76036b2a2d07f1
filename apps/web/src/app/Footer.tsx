import { Link, useLocation } from 'react-router-dom';
import { PATHS, SUPPORT_EMAIL } from '../routes/paths';
import { toolForPath } from '../tools/registry';
import type { ResourceLink } from '../tools/types';

/** Per-route resource links: a tool declares them in its meta.ts; other routes here. */
const ROUTE_RESOURCES: Record<string, ResourceLink[]> = {
  [PATHS.security]: [
    {
      title: 'OWASP Application Security Verification Standard',
      url: 'https://owasp.org/www-project-application-security-verification-standard/',
    },
  ],
  [PATHS.help]: [{ title: 'Tinkerdesk API reference', url: PATHS.apiDocs }],
};

const RELATED = [
  { title: 'MDN Web Docs', url: 'https://developer.mozilla.org/' },
  { title: 'Can I use', url: 'https://caniuse.com/' },
  { title: 'web.dev', url: 'https://web.dev/' },
];

export function Footer() {
  const { pathname } = useLocation();
  const resources = toolForPath(pathname)?.resources ?? ROUTE_RESOURCES[pathname] ?? [];
  return (
    <footer className="footer">
      <div className="footer-inner">
        {resources.length > 0 ? (
          <section className="footer-resources" aria-labelledby="footer-resources">
            <h2 id="footer-resources">Resources</h2>
            <ul>
              {resources.map((r) => (
                <li key={r.url}>
                  <a href={r.url} rel="noopener noreferrer" target={r.url.startsWith('/') ? undefined : '_blank'}>
                    {r.title}
                  </a>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <div className="footer-columns">
          <nav aria-label="Tools">
            <h2>Tools</h2>
            <ul>
              <li>
                <Link to={PATHS.tools}>All tools</Link>
              </li>
              <li>
                <Link to="/tools/converters/base64/encode/">Base64</Link>
              </li>
              <li>
                <Link to="/tools/displaybarcode/">Barcode creator</Link>
              </li>
              <li>
                <Link to="/tools/passwordgenerator/">Password generator</Link>
              </li>
              <li>
                <Link to={PATHS.hardware}>Bluetooth beeper</Link>
              </li>
            </ul>
          </nav>
          <nav aria-label="Company">
            <h2>Company</h2>
            <ul>
              <li>
                <Link to={PATHS.about}>About</Link>
              </li>
              <li>
                <Link to={PATHS.help}>Help</Link>
              </li>
              <li>
                <Link to={PATHS.faq}>FAQ</Link>
              </li>
              <li>
                <Link to={PATHS.pricing}>Pricing</Link>
              </li>
              <li>
                <a href={PATHS.apiDocs}>API</a>
              </li>
            </ul>
          </nav>
          <nav aria-label="Legal">
            <h2>Legal</h2>
            <ul>
              <li>
                <Link to={PATHS.terms}>Terms</Link>
              </li>
              <li>
                <Link to={PATHS.privacy}>Privacy</Link>
              </li>
              <li>
                <Link to={PATHS.security}>Security</Link>
              </li>
            </ul>
          </nav>
          <nav aria-label="Related sites">
            <h2>Related sites</h2>
            <ul>
              {RELATED.map((r) => (
                <li key={r.url}>
                  <a href={r.url} rel="noopener noreferrer" target="_blank">
                    {r.title}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <section aria-labelledby="footer-support">
            <h2 id="footer-support">Support</h2>
            <p>
              <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
            </p>
            <p>
              <Link to={PATHS.contact}>Contact form</Link>
            </p>
          </section>
        </div>
        <p className="copyright">© 2022-2025 Tinkerdesk</p>
      </div>
    </footer>
  );
}
