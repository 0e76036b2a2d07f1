import { useEffect, useState } from 'react';
import type { OidcProviderView } from '@tinkerdesk/contracts/web';
import { errorText } from '../../../shared/api';
import { socialProviders, startSocialSignIn } from '../api';
import { FormError } from '../../../shared/forms';

type Provider = OidcProviderView;

/** Buttons for the configured OpenID Connect providers (none shown when none is configured). */
export function SocialSignIn({ next }: { next: string | undefined }) {
  const [providers, setProviders] = useState<Provider[]>([]);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    const controller = new AbortController();
    socialProviders(controller.signal)
      .then((body) => setProviders(body.providers))
      .catch(() => setProviders([]));
    return () => controller.abort();
  }, []);

  if (providers.length === 0) return null;

  async function start(provider: Provider) {
    setBusy(provider.id);
    setError('');
    try {
      const { url } = await startSocialSignIn(provider.id, next);
      window.location.assign(url);
    } catch (failure) {
      setError(errorText(failure));
      setBusy(null);
    }
  }

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
          onClick={() => void start(provider)}
        >
          {busy === provider.id ? `Opening ${provider.name}…` : `Continue with ${provider.name}`}
        </button>
      ))}
      <FormError message={error} />
    </div>
  );
}
