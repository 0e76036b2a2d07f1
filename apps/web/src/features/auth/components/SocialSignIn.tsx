import { errorText } from '../../../shared/api';
import { FormError } from '../../../shared/forms';
import { useSocialProviders, useStartSocialSignIn } from '../hooks';

/** Buttons for the configured OpenID Connect providers (none shown when none is configured). */
export function SocialSignIn({ next }: { next: string | undefined }) {
  const providers = useSocialProviders().data ?? [];
  const start = useStartSocialSignIn(next);
  // While the browser leaves for the provider, every button stays disabled.
  const busy = start.isPending || start.isSuccess ? start.variables.id : null;

  if (providers.length === 0) return null;

  return (
    <div className="social-sign-in">
      <p className="divider">
        <span>or</span>
      </p>
      {providers.map((provider) => (
        <button
          key={provider.id}
          type="button"
          className={`button social-button social-${provider.id}`}
          disabled={busy !== null}
          onClick={() => start.mutate(provider)}
        >
          {busy === provider.id ? `Opening ${provider.name}…` : `Continue with ${provider.name}`}
        </button>
      ))}
      <FormError message={start.error ? errorText(start.error) : ''} />
    </div>
  );
}
