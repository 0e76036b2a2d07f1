import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { session, useSession } from '../shared/session/session';
import type { AppNotification, AppPrompt } from '../shared/session/types';

/** Notifications (docs/web-app.md#session-and-local-database) as a live region of toasts, and prompts as modal dialogs. */
export function Notifications() {
  const { notifications, prompts } = useSession();
  return (
    <>
      <section className="toasts" aria-label="Notifications" aria-live="polite">
        {notifications.map((n) => (
          <Toast key={n.id} notification={n} />
        ))}
      </section>
      {prompts.length > 0 ? <PromptDialog key={prompts[0]!.id} prompt={prompts[0]!} /> : null}
    </>
  );
}

function Toast({ notification: n }: { notification: AppNotification }) {
  const target = n.button?.target;
  const external = target ? /^[a-z]+:/i.test(target) : false;
  return (
    <div className={`toast toast-${n.type}`} role={n.type === 'error' ? 'alert' : 'status'} data-tag={n.tag}>
      <div className="toast-body">
        {n.heading ? <p className="toast-heading">{n.heading}</p> : null}
        {n.title ? <p className="toast-title">{n.title}</p> : null}
        <p className="toast-content">{n.content}</p>
        {n.button && target ? (
          external ? (
            <a className="toast-button" href={target} rel="noopener noreferrer">
              {n.button.title}
            </a>
          ) : (
            <Link className="toast-button" to={target} onClick={() => session.dismiss(n.id)}>
              {n.button.title}
            </Link>
          )
        ) : null}
      </div>
      {n.close !== false ? (
        <button type="button" className="icon-button toast-close" aria-label="Close notification" onClick={() => session.dismiss(n.id)}>
          ×
        </button>
      ) : null}
    </div>
  );
}

function PromptDialog({ prompt }: { prompt: AppPrompt }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="prompt"
      aria-labelledby={`${prompt.id}-title`}
      aria-describedby={`${prompt.id}-content`}
      onCancel={(event) => {
        if (prompt.close === false) event.preventDefault();
        else session.answer(prompt.id, undefined);
      }}
    >
      <h2 id={`${prompt.id}-title`}>{prompt.title}</h2>
      <p id={`${prompt.id}-content`}>{prompt.content}</p>
      <div className="actions">
        {prompt.buttons.map((button) => (
          <button
            key={button.value}
            type="button"
            className={button.primary ? 'button button-primary' : 'button'}
            onClick={() => session.answer(prompt.id, button.value)}
          >
            {button.title}
          </button>
        ))}
      </div>
    </dialog>
  );
}
