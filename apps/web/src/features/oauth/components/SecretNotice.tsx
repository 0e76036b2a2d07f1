import type { OAuthAppCreated } from '@tinkerdesk/contracts/web';
import { CopyButton } from '../../../shared/ui/actions';

/** An app's client id and secret right after they were made: the secret is shown this once. */
export function SecretNotice({ created, heading, onDone }: { created: OAuthAppCreated; heading: string; onDone: () => void }) {
  return (
    <div className="notice notice-success app-created" role="status">
      <p>
        <strong>{created.app.name}</strong> {heading}.
      </p>
      <p>
        Client ID: <code>{created.app.id}</code> <CopyButton text={created.app.id} label="Copy ID" />
      </p>
      {created.clientSecret ? (
        <p>
          Client secret: <code className="app-secret">{created.clientSecret}</code>{' '}
          <CopyButton text={created.clientSecret} label="Copy secret" />
          <br />
          <strong>Copy the secret now: it is shown only once.</strong>
        </p>
      ) : (
        <p>A public app has no secret: it proves itself with PKCE.</p>
      )}
      <button type="button" className="button button-small" onClick={onDone}>
        Done
      </button>
    </div>
  );
}
