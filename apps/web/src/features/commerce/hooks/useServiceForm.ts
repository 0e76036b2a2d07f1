/**
 * The state of the service form (/account#selling): its fields, the provider switch that suggests a
 * sandbox account, the account check and the save, on the selling mutations. Whether this site takes
 * card payments through Stripe comes from GET /v1/paymentinstruments (`providers`: the providers the
 * site is set up for), so Stripe is not offered where a service with it would be refused. The name
 * buyers see (displayName) starts from the profile name for a new service and is required: its error
 * (empty here, or the server's refusal of it) shows on that field. The form component only lays it out.
 */
import {
  SELLER_NAME_MAX,
  shopSlugProblem,
  suggestShopSlug,
  type PaymentProviderId,
  type ServiceView,
  type Vendor,
} from '@tinkerdesk/contracts/web';
import { useState, type FormEvent } from 'react';
import { ApiError, errorText } from '../../../shared/api';
import { focusField, refusalWords, refusedField } from '../../../shared/forms';
import { session, useSession } from '../../../shared/session/session';
import { useInstruments } from './queries';
import { useSaveService, useValidateAccount } from './selling';

/** A sandbox account name from the user's name or guid: sandbox_<letters>. */
export function suggestedSandboxAccount(name: string | undefined, guid: string): string {
  const slug = (name ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 32);
  return `sandbox_${slug || guid.slice(0, 8)}`;
}

/** The fields a server refusal may name (its detail starts with one), each with its input's id. */
const REFUSABLE = ['name', 'account', 'statementDescriptor', 'supportEmail'] as const;
type Refusable = (typeof REFUSABLE)[number];
export const SERVICE_FIELD_IDS: Record<Refusable, string> = {
  name: 'service-name',
  account: 'service-account',
  statementDescriptor: 'service-descriptor',
  supportEmail: 'service-support',
};

/** The input (its id after `service-`) a refusal of the save is about: the shop link taken, the name buyers see, another field; else none. */
function refusedInput(error: unknown): string | null {
  if (error instanceof ApiError && error.error === 'CONFLICT') return 'slug';
  if (error instanceof ApiError && error.detail?.startsWith('displayName')) return 'display-name';
  const field = refusedField(error, REFUSABLE);
  return field ? SERVICE_FIELD_IDS[field].slice('service-'.length) : null;
}

export type OriginAddress = Record<'name' | 'line1' | 'line2' | 'city' | 'state' | 'postalCode' | 'country', string>;

export function useServiceForm(existing: ServiceView | undefined, onDone: () => void) {
  const { token, profile } = useSession();
  const guid = profile?.guid ?? '';
  const origin = (existing?.shippingOrigin ?? {}) as Record<string, string>;
  const [name, setName] = useState(existing?.name ?? '');
  const [displayName, setDisplayNameValue] = useState(existing?.displayName ?? profile?.name?.trim() ?? '');
  const [displayNameMissing, setDisplayNameMissing] = useState(false);
  const [provider, setProviderValue] = useState<PaymentProviderId>((existing?.provider as PaymentProviderId) ?? 'sandbox');
  const [vendor, setVendor] = useState<Vendor>((existing?.vendor as Vendor) ?? 'digital');
  const [account, setAccountValue] = useState(existing?.account ?? suggestedSandboxAccount(profile?.name, guid));
  const [descriptor, setDescriptor] = useState(String(existing?.statementDescriptor ?? ''));
  const [support, setSupport] = useState(String(existing?.supportEmail ?? ''));
  const [address, setAddress] = useState<OriginAddress>({
    name: origin.name ?? '',
    line1: origin.line1 ?? '',
    line2: origin.line2 ?? '',
    city: origin.city ?? '',
    state: origin.state ?? '',
    postalCode: origin.postalCode ?? '',
    country: origin.country ?? 'US',
  });
  // The shop link: a new service's follows its name until the seller types one; an existing one keeps what it has.
  const [slugValue, setSlugValue] = useState(existing?.slug ?? '');
  const [slugTouched, setSlugTouched] = useState(existing !== undefined);
  const slug = slugTouched ? slugValue : suggestShopSlug(name);
  const [refusal, setRefusal] = useState('');
  const instruments = useInstruments();
  // Unknown while loading (or when the list failed): offered, and the server still decides.
  const stripeUnavailable = instruments.data ? !instruments.data.providers.includes('stripe') : false;
  const check = useValidateAccount(guid);
  const save = useSaveService(guid);

  function setProvider(next: PaymentProviderId) {
    if (next === 'stripe' && stripeUnavailable) return;
    setProviderValue(next);
    check.reset();
    if (next === 'sandbox' && !account.startsWith('sandbox_')) setAccountValue(suggestedSandboxAccount(profile?.name, guid));
    if (next === 'stripe' && account.startsWith('sandbox_')) setAccountValue('');
  }

  function setAccount(next: string) {
    setAccountValue(next);
    check.reset();
  }

  function setSlug(next: string) {
    setSlugTouched(true);
    setSlugValue(next);
    if (save.isError) save.reset();
  }

  function setDisplayName(next: string) {
    setDisplayNameValue(next);
    if (next.trim()) setDisplayNameMissing(false);
    if (save.error instanceof ApiError && save.error.detail?.startsWith('displayName')) save.reset();
  }

  function validate() {
    if (!token) return;
    setRefusal('');
    save.reset();
    check.mutate({ provider, account: account.trim() });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!token) return;
    if (check.isError) check.reset();
    if (!displayName.trim()) {
      save.reset();
      setDisplayNameMissing(true);
      return document.getElementById('service-display-name')?.focus();
    }
    if (!name.trim()) return (save.reset(), setRefusal('Give the service a name.'), focusField('service', 'name'));
    if (slug.trim() && shopSlugProblem(slug.trim())) return (save.reset(), setSlugTouched(true), setSlugValue(slug));
    setRefusal('');
    save.mutate(
      {
        body: {
          name: name.trim(),
          displayName: displayName.trim(),
          provider,
          vendor,
          account: account.trim(),
          ...(provider === 'stripe' && descriptor.trim() ? { statementDescriptor: descriptor.trim() } : {}),
          ...(support.trim() ? { supportEmail: support.trim() } : {}),
          ...(slug.trim() ? { slug: slug.trim() } : existing?.slug ? { slug: null } : {}),
          ...(vendor === 'mail'
            ? {
                shippingOrigin: {
                  name: address.name.trim(),
                  line1: address.line1.trim(),
                  ...(address.line2.trim() ? { line2: address.line2.trim() } : {}),
                  city: address.city.trim(),
                  ...(address.state.trim() ? { state: address.state.trim() } : {}),
                  postalCode: address.postalCode.trim(),
                  country: address.country.trim().toUpperCase(),
                },
              }
            : {}),
        },
        serviceId: existing?.id,
      },
      {
        onSuccess: () => {
          session.notify({
            tag: 'service',
            type: 'success',
            content: existing ? 'The service is saved.' : 'Your service is ready: add products to it.',
            timeout: 5000,
          });
          onDone();
        },
        onError: (error) => focusField('service', refusedInput(error)),
      },
    );
  }

  const failure = [save, check].find((m) => m.isError)?.error;
  const taken = failure instanceof ApiError && failure.error === 'CONFLICT';
  const displayNameRefused = failure instanceof ApiError && failure.detail?.startsWith('displayName') === true;
  const displayNameError = displayNameMissing
    ? 'Enter the name buyers see: your name or your shop’s.'
    : displayNameRefused
      ? `The name buyers see is needed, at most ${SELLER_NAME_MAX} characters.`
      : '';
  // A refusal about one field shows on it ("Support email: …"); the name left empty too.
  const refusedOn = refusedField(failure, REFUSABLE);
  const fieldErrors: Partial<Record<Refusable, string>> = {
    ...(refusedOn ? { [refusedOn]: refusalWords(failure) } : {}),
    ...(refusal ? { name: refusal } : {}),
  };
  const slugProblem = slug.trim() ? shopSlugProblem(slug.trim()) : undefined;
  const slugError = taken
    ? 'That shop link is taken: choose another.'
    : slugTouched && slugProblem
      ? `${slugProblem[0]?.toUpperCase()}${slugProblem.slice(1)}.`
      : '';
  return {
    fields: { name, displayName, provider, vendor, account, descriptor, support, address, slug },
    slugSuggestion: suggestShopSlug(name),
    slugError,
    displayNameError,
    set: {
      name: (next: string) => (setName(next), setRefusal('')),
      displayName: setDisplayName,
      provider: setProvider,
      vendor: setVendor,
      account: setAccount,
      descriptor: setDescriptor,
      support: setSupport,
      address: setAddress,
      slug: setSlug,
    },
    check: check.data ? { valid: check.data.valid, reason: check.data.reason } : null,
    fieldErrors,
    error: failure && !taken && !displayNameRefused && !refusedOn ? errorText(failure) : '',
    busy: save.isPending,
    stripeUnavailable,
    validate,
    submit,
  };
}
