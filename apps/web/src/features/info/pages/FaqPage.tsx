import { Link } from 'react-router-dom';
import type { ReactNode } from 'react';
import { PATHS } from '../../../routes/paths';
import type { Capability } from '../../../shared/capabilities';
import { Coming } from '../../../shared/Coming';
import { Page } from '../../../shared/Page';

/** A question, its answer, and the capability it is about when that is not built for everyone yet. */
const FAQ: Array<[string, ReactNode, Capability?]> = [
  [
    'Are my files uploaded?',
    'No. The tools run in your browser; what you give them stays on your device, unless you convert it on the server or save it to your files.',
  ],
  [
    'Can I keep results on Tinkerdesk?',
    'Yes, when signed in: “Save to my files” beside a download keeps the file in your account, within its storage quota; your account page lists them to download or delete. Only you can reach them.',
    'savedFiles',
  ],
  [
    'What happens to a file I convert on the server?',
    'It is converted by a worker and then deleted; the converted result is kept for at most 24 hours so you can download it.',
    'serverConversion',
  ],
  ['Do I need an account?', 'Not for the tools. An account keeps your name and time zone.'],
  ['Is it free?', 'Yes. The tools are free, and Tinkerdesk takes no fee on sales (Stripe charges its own fees to sellers).'],
  [
    'Can I sell through Tinkerdesk?',
    'Yes: set up a service under Account → Selling with the name buyers see, add products, and share your shop link (/s/your-name) or its QR code. Buyers order with or without an account, pay, and get a receipt; you fulfil, answer messages and refund all or part of a payment. See Help → Selling.',
    'selling',
  ],
  [
    'What is a terminal?',
    'A browser you registered with your account. Terminals share links with each other and show push notifications.',
    'terminals',
  ],
  ['What is the Bluetooth beeper for?', 'A shop or counter can pair one with its browser so that it beeps for new orders.', 'beeper'],
  [
    'Is there an API?',
    'Yes: the /v1 API, the same one the site uses. Its documentation is at /v1/docs and its OpenAPI document at /v1/openapi.json.',
  ],
  ['Which browsers work?', 'Current versions of Chrome, Edge, Firefox and Safari.'],
];

export function FaqPage() {
  return (
    <Page title="Frequently asked questions" lead="Short answers to what people ask most.">
      <dl className="faq">
        {FAQ.map(([q, a, what]) =>
          what ? (
            <Coming key={q} what={what} as="div">
              <dt>{q}</dt>
              <dd>{a}</dd>
            </Coming>
          ) : (
            <div key={q}>
              <dt>{q}</dt>
              <dd>{a}</dd>
            </div>
          ),
        )}
      </dl>
      <p>
        Not answered here? <Link to={PATHS.contact}>Ask us</Link>.
      </p>
    </Page>
  );
}
