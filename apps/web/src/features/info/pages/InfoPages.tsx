/** The site's information pages, one file each, loaded together (one chunk) by the router. */
export { HelpPage } from './HelpPage';
export { PricingPage } from './PricingPage';
export { AboutPage } from './AboutPage';
export { FaqPage } from './FaqPage';
export { TermsPage } from './TermsPage';
export { PrivacyPage } from './PrivacyPage';
export { SecurityPage } from './SecurityPage';
