import type { TerminalView } from '@tinkerdesk/contracts/web';
import { useState, type FormEvent } from 'react';
import { errorText } from '../../../shared/api';
import { FieldError, focusField, FormError, refusalWords, refusedField } from '../../../shared/forms';
import { session as sessionStore } from '../../../shared/session/session';
import { useShareTo } from '../hooks/queries';
import type { LocalTerminal } from '../this-browser';
import { isLink } from './share-text';

/** The fields a server refusal may name (its detail starts with the field: shared/forms.ts refusedField). */
const SHARE_FIELDS = ['content', 'description'] as const;

/**
 * Sends a link or a note to one of the terminals that receive. This browser's own terminal (`mine`) is
 * listed last and never chosen by default: sending is for the other devices, unless it is the only one.
 * `from` is this browser's terminal when it may send: the receiving inbox then names it as the sender.
 */
export function SendForm({
  terminals,
  mine = null,
  from = null,
}: {
  terminals: TerminalView[];
  mine?: string | null;
  from?: LocalTerminal | null;
}) {
  const receiving = terminals.filter((t) => t.active && t.receive);
  const receivers = [...receiving.filter((t) => t.id !== mine), ...receiving.filter((t) => t.id === mine)];
  const [chosen, setTarget] = useState('');
  // The chosen terminal while it can receive, else the first that can (another device when there is one).
  const target = receivers.some((t) => t.id === chosen) ? chosen : (receivers[0]?.id ?? '');
  const [content, setContent] = useState('');
  const [description, setDescription] = useState('');
  const [refusal, setRefusal] = useState('');
  const sending = useShareTo();
  if (receivers.length === 0) return <p className="muted">None of your terminals receives shares at the moment.</p>;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!content.trim()) {
      sending.reset();
      setRefusal('Write a link or a note to send.');
      return focusField('share', 'content');
    }
    setRefusal('');
    sending.mutate(
      {
        target,
        from,
        contentType: isLink(content) ? 'text/x-uri' : 'text/plain',
        content: content.trim(),
        description: description.trim(),
      },
      {
        // A refusal of a field goes under it, which takes the focus.
        onError: (error) => focusField('share', refusedField(error, SHARE_FIELDS)),
        onSuccess: ({ share }) => {
          const to = terminals.find((t) => t.id === share.terminalId)?.label ?? 'the terminal';
          sessionStore.notify({
            tag: 'share-sent',
            type: 'success',
            content: `Sent to ${to}${share.push === 'pending' ? ' and pushed' : ' (its inbox: push is off there)'}.`,
            timeout: 5000,
          });
          setContent('');
          setDescription('');
        },
      },
    );
  }

  const refused = refusedField(sending.error, SHARE_FIELDS);
  const fieldErrors = {
    content: refusal || (refused === 'content' ? refusalWords(sending.error, 'content', 'Link or note') : ''),
    description: refused === 'description' ? refusalWords(sending.error) : '',
  };
  const error = sending.error && !refused ? errorText(sending.error) : '';
  const invalid = (field: keyof typeof fieldErrors) => ({
    'aria-invalid': Boolean(fieldErrors[field]),
    'aria-describedby': fieldErrors[field] ? `share-${field}-error` : undefined,
  });
  return (
    <form className="form form-flat" onSubmit={submit} noValidate aria-label="Send to a terminal">
      <h3>Send to a terminal</h3>
      <label htmlFor="share-target">To</label>
      <select id="share-target" value={target} onChange={(e) => setTarget(e.target.value)}>
        {receivers.map((t) => (
          <option key={t.id} value={t.id}>
            {t.id === mine ? `${t.label} (this browser)` : t.label}
          </option>
        ))}
      </select>
      <label htmlFor="share-content">Link or note</label>
      <textarea
        id="share-content"
        rows={2}
        maxLength={8192}
        value={content}
        onChange={(e) => setContent(e.target.value)}
        {...invalid('content')}
      />
      <FieldError id="share-content-error" name="Link or note" message={fieldErrors.content} />
      <label htmlFor="share-description">Description (optional)</label>
      <input
        id="share-description"
        maxLength={500}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        {...invalid('description')}
      />
      <FieldError id="share-description-error" name="Description" message={fieldErrors.description} />
      <FormError message={error} />
      <button type="submit" className="button button-primary align-start" disabled={sending.isPending}>
        {sending.isPending ? 'Sending…' : 'Send'}
      </button>
    </form>
  );
}
