import type { TerminalView } from '@tinkerdesk/contracts/web';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { PATHS } from '../../../routes/paths';
import { errorText } from '../../../shared/api';
import { InlinePanel, useDisclosure } from '../../../shared/disclosure';
import { FormError } from '../../../shared/forms';
import { useSession } from '../../../shared/session/session';
import { useReloadOnShare, useTerminalsOverview } from '../hooks/queries';
import { Inbox } from './Inbox';
import { SendForm } from './SendForm';
import { TerminalList } from './TerminalList';
import { ThisBrowser } from './ThisBrowser';

/** The routes inside /account's hash (docs/web-app.md#routes): a terminal's inbox, and the share success page. */
const HASH_ROUTE = /^#\/terminals\/([0-9a-f-]{36})\/(inbox|share\/success)$/;

/**
 * /account/terminals: this browser as a terminal (register, name, push on or off, where its shares
 * go), the account's other terminals, each one's inbox (open, copy, delete), sending to a terminal,
 * and the share success route (/account/#/terminals/{id}/share/success).
 */
export function TerminalsSection() {
  const { platform } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const overview = useTerminalsOverview();
  useReloadOnShare();
  // The open inbox, in its terminal's row: the focus moves into it, and back to its Inbox button when it closes.
  const inbox = useDisclosure<string>();
  const route = HASH_ROUTE.exec(location.hash);
  const error = overview.error ? errorText(overview.error) : '';
  const terminals = overview.data?.terminals ?? null;

  // /account/#/terminals/{id}/inbox opens that inbox in place once the list is drawn (the focus moving
  // into it brings it into view); the share success route shows the section's top.
  const [routedId, routedTo] = route ? [route[1]!, route[2]!] : [null, null];
  const loaded = terminals !== null;
  const { open: openInbox } = inbox;
  useEffect(() => {
    if (!routedId || !loaded) return;
    if (routedTo === 'inbox') openInbox(routedId);
    else document.getElementById('terminals')?.scrollIntoView({ block: 'start' });
  }, [routedId, routedTo, loaded, openInbox]);
  const local = overview.data?.local;
  const mine = local ? terminals?.find((t) => t.id === local.terminalId) : undefined;
  const others = (terminals ?? []).filter((t) => t.id !== mine?.id);
  // A removed terminal's inbox closes with its row.
  const inboxOf = terminals?.find((t) => t.id === inbox.shown);

  return (
    <section className="card account-card terminals" id="terminals" aria-labelledby="terminals-heading">
      <h2 id="terminals-heading">Terminals</h2>
      <p className="muted">Your browsers send links and notes to each other; a terminal that receives gets a push notification.</p>
      {route?.[2] === 'share/success' ? (
        <ShareSuccess terminals={terminals} terminalId={route[1]!} onClose={() => void navigate(PATHS.accountTerminals)} />
      ) : null}
      <FormError message={error} />
      {terminals === null || local === undefined ? (
        error ? null : (
          <p role="status">Loading…</p>
        )
      ) : (
        <>
          <ThisBrowser
            key={mine?.id ?? 'none'}
            terminal={mine}
            local={local}
            others={others}
            pushOn={overview.pushOn}
            mobile={platform.mobile}
          />
          <TerminalList
            terminals={terminals}
            mine={mine?.id ?? null}
            inboxOpener={inbox.opener}
            inboxOf={inboxOf?.id ?? null}
            inbox={
              inboxOf ? (
                <InlinePanel disclosure={inbox}>
                  <Inbox terminal={inboxOf} terminals={terminals} onClose={() => inbox.close()} />
                </InlinePanel>
              ) : null
            }
          />
          {terminals.length > 0 ? (
            <SendForm terminals={terminals} mine={mine?.id ?? null} from={mine?.active && mine.send ? local : null} />
          ) : null}
        </>
      )}
    </section>
  );
}

function ShareSuccess({ terminals, terminalId, onClose }: { terminals: TerminalView[] | null; terminalId: string; onClose: () => void }) {
  const from = terminals?.find((t) => t.id === terminalId);
  const to = from?.destination ? terminals?.find((t) => t.id === from.destination) : from;
  return (
    <div className="notice notice-success" role="status">
      <p>
        <strong>Shared.</strong> {to ? `It is in the inbox of ${to.label}.` : 'It was sent.'}
      </p>
      <button type="button" className="button button-small" onClick={onClose}>
        Done
      </button>
    </div>
  );
}
