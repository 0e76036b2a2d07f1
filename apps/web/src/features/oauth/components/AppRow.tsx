import type { OAuthAppView } from '@tinkerdesk/contracts/web';
import { errorText } from '../../../shared/api';
import { useDisclosure } from '../../../shared/disclosure';
import { FormError } from '../../../shared/forms';
import { InlineConfirm } from '../../../shared/InlineConfirm';
import { CopyButton } from '../../../shared/ui/actions';
import { useDeleteApp, useReplaceSecret } from '../hooks';
import { EditApp } from './EditApp';
import { SecretNotice } from './SecretNotice';

/** A registered app: its facts, a new secret (shown once) and Delete, each after a confirm. */
export function AppRow({ app }: { app: OAuthAppView }) {
  // One question or form at a time; the focus returns to the button that opened it (shared/disclosure.tsx).
  const asking = useDisclosure<'delete' | 'secret' | 'edit'>();
  const deletion = useDeleteApp();
  const secret = useReplaceSecret();
  const done = { onSettled: () => asking.close() };
  // The last action's failure: starting one clears the other's.
  const error = deletion.error ?? secret.error;
  return (
    <li className="app-row">
      <div className="app-row-head">
        <strong>{app.name}</strong>
        {asking.shown === 'delete' ? (
          <InlineConfirm
            label={`Delete ${app.name}?`}
            question="Delete it? Everyone's access through it ends."
            action="Delete"
            busy={deletion.isPending}
            onConfirm={() => {
              secret.reset();
              deletion.mutate(app.id, done);
            }}
            onCancel={() => asking.close()}
          />
        ) : asking.shown === 'secret' ? (
          <InlineConfirm
            label={`Replace the secret of ${app.name}?`}
            question="Replace its secret? The old one stops working at once."
            action="Replace secret"
            busy={secret.isPending}
            onConfirm={() => {
              deletion.reset();
              secret.mutate(app.id, done);
            }}
            onCancel={() => asking.close()}
          />
        ) : (
          <span className="app-row-actions">
            <button type="button" className="button button-small" {...asking.opener('edit')}>
              Edit
            </button>
            {app.tokenEndpointAuthMethod !== 'none' ? (
              <button type="button" className="button button-small" {...asking.opener('secret')}>
                New secret
              </button>
            ) : null}
            <button type="button" className="button button-small button-ghost" {...asking.opener('delete')}>
              Delete
            </button>
          </span>
        )}
      </div>
      {asking.shown === 'edit' ? <EditApp app={app} onClose={() => asking.close()} /> : null}
      {secret.data ? <SecretNotice created={secret.data} heading="has a new secret" onDone={() => secret.reset()} /> : null}
      <dl className="app-facts">
        <dt>Client ID</dt>
        <dd>
          <code>{app.id}</code> <CopyButton text={app.id} label="Copy ID" />
        </dd>
        <dt>Redirect URIs</dt>
        <dd>
          {app.redirectUris.map((u) => (
            <code key={u} className="app-uri">
              {u}
            </code>
          ))}
        </dd>
        <dt>Scopes</dt>
        <dd>{app.scopes.join(' ')}</dd>
        <dt>Token endpoint</dt>
        <dd>{app.tokenEndpointAuthMethod}</dd>
      </dl>
      <FormError message={error ? errorText(error) : ''} />
    </li>
  );
}
