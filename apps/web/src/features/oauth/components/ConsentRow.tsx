import { formatLongDate, OAUTH_SCOPES, type OAuthConsentView } from '@tinkerdesk/contracts/web';
import { errorText } from '../../../shared/api';
import { useDisclosure } from '../../../shared/disclosure';
import { FormError } from '../../../shared/forms';
import { InlineConfirm } from '../../../shared/InlineConfirm';
import { useWithdrawConsent } from '../hooks';

/** An app the user allowed: what it may do, since when, and Withdraw after a confirm. */
export function ConsentRow({ consent }: { consent: OAuthConsentView }) {
  const asking = useDisclosure();
  const withdraw = useWithdrawConsent();
  return (
    <li className="consent-row">
      <div>
        <strong>{consent.appName}</strong>
        <span className="muted"> · since {formatLongDate(consent.created)}</span>
        <div className="muted">{consent.scopes.map((s) => OAUTH_SCOPES[s]).join('; ') || 'No scopes'}</div>
      </div>
      {asking.shown ? (
        <InlineConfirm
          label={`Withdraw ${consent.appName}'s access?`}
          question="Withdraw its access now?"
          action="Withdraw"
          busy={withdraw.isPending}
          onConfirm={() => withdraw.mutate(consent.id)}
          onCancel={() => asking.close()}
        />
      ) : (
        <button type="button" className="button button-small" {...asking.opener('open')}>
          Withdraw access
        </button>
      )}
      <FormError message={withdraw.error ? errorText(withdraw.error) : ''} />
    </li>
  );
}
