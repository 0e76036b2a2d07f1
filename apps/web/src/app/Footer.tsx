import { Link, useLocation } from 'react-router-dom';
import { PATHS, SUPPORT_EMAIL } from '../routes/paths';
import { resourcesFor } from '../routes/resources';
import { Coming } from '../shared/Coming';
import { MailIcon } from '../shared/icons';

const RELATED = [
  { title: 'MDN Web Docs', url: 'https://developer.mozilla.org/' },
  { title: 'Can I use', url: 'https://caniuse.com/' },
  { title: 'web.dev', url: 'https://web.dev/' },
];

const isExternal = (url: string) => /^https?:/.test(url);

export function Footer() {
  const { pathname } = useLocation();
  const resources = resourcesFor(pathname);
  return (
    <footer className="footer">
      <div className="footer-inner">
        {resources.length > 0 ? (
          <section className="footer-resources" aria-labelledby="footer-resources">
            <h2 id="footer-resources">Resources</h2>
            <ul>
              {resources.map((r) => (
                <li key={r.url}>
                  {isExternal(r.url) ? (
                    <a href={r.url} rel="noopener noreferrer" target="_blank">
                      {r.title}
                      <span className="visually-hidden"> (opens in a new tab)</span>
                    </a>
                  ) : (
                    <a href={r.url}>{r.title}</a>
                  )}
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <div className="footer-columns">
          <div className="footer-brand">
            <Link to={PATHS.root} className="logo">
              <img src="/logo.svg" alt="" width="28" height="28" />
              <span>Tinkerdesk</span>
            </Link>
            <p>
              Small tools that run in your browser, and <Coming what="selling">an account area for providers who sell online</Coming>.
            </p>
            <p className="footer-support">
              <MailIcon />
              <span>
                Support: <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> or the <Link to={PATHS.contact}>contact form</Link>
              </span>
            </p>
          </div>
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
              <Coming what="beeper" as="li">
                <Link to={PATHS.hardware}>Bluetooth beeper</Link>
              </Coming>
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
                <Link to={PATHS.contact}>Contact</Link>
              </li>
              <li>
                <a href={PATHS.apiDocs}>API docs</a>
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
                    <span className="visually-hidden"> (opens in a new tab)</span>
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </div>
        <p className="copyright">© 2022–{new Date().getFullYear()} Tinkerdesk</p>
      </div>
    </footer>
  );
}
