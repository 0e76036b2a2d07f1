import { formatLongDate, OAUTH_SCOPES, type OAuthConsentView } from '@tinkerdesk/contracts/web';
import { useState } from 'react';
import { errorText } from '../../../shared/api';
import { FormError } from '../../../shared/forms';
import { InlineConfirm } from '../../../shared/InlineConfirm';
import { useWithdrawConsent } from '../hooks';

/** An app the user allowed: what it may do, since when, and Withdraw after a confirm. */
export function ConsentRow({ consent }: { consent: OAuthConsentView }) {
  const [asking, setAsking] = useState(false);
  const withdraw = useWithdrawConsent();
  return (
    <li className="consent-row">
      <div>
        <strong>{consent.appName}</strong>
        <span className="muted"> · since {formatLongDate(consent.created)}</span>
        <div className="muted">{consent.scopes.map((s) => OAUTH_SCOPES[s]).join('; ') || 'No scopes'}</div>
      </div>
      {asking ? (
        <InlineConfirm
          label={`Withdraw ${consent.appName}'s access?`}
          question="Withdraw its access now?"
          action="Withdraw"
          busy={withdraw.isPending}
          onConfirm={() => withdraw.mutate(consent.id)}
          onCancel={() => setAsking(false)}
        />
      ) : (
        <button type="button" className="button button-small" onClick={() => setAsking(true)}>
          Withdraw access
        </button>
      )}
      <FormError message={withdraw.error ? errorText(withdraw.error) : ''} />
    </li>
  );
}
