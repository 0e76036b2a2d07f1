import { errorText } from '../../../shared/api';
import { FormError } from '../../../shared/forms';
import { useRequestVerification } from '../../account/hooks';

/**
 * "Email me the link again": sends the signed-in user's verification link again, leading back to
 * `returnTo` once it is opened (the order's or the request's page); a refusal shows above the button.
 */
export function ResendVerification({ guid, email, returnTo }: { guid: string; email: string; returnTo: string }) {
  const resend = useRequestVerification();
  return (
    <>
      <FormError message={resend.error ? errorText(resend.error) : ''} />
      <button
        type="button"
        className="button align-start"
        disabled={resend.isPending}
        onClick={() => resend.mutate({ guid, email, returnTo })}
      >
        {resend.isPending ? 'Sending…' : 'Email me the link again'}
      </button>
    </>
  );
}
