import { useState } from 'react';
import { Link } from 'react-router-dom';
import { PATHS, signInPath } from '../../routes/paths';
import { InlineConfirm } from '../../shared/InlineConfirm';
import { useSession } from '../../shared/session/session';
import { exportStem } from './draft';
import type { usePassEditor } from './use-pass-editor';
import { WalletButtons } from './WalletButtons';

/** "Save and add to a wallet": Save, New pass (asking first when there are unsaved changes), what is saved, the wallet links. */
export function SaveSection({ editor }: { editor: ReturnType<typeof usePassEditor> }) {
  const session = useSession();
  const [confirmNew, setConfirmNew] = useState(false);
  const { token, savedId, dirty, status, error } = editor;
  const startNew = () => {
    setConfirmNew(false);
    editor.startNew();
  };
  return (
    <section className="wallet-actions" aria-labelledby="wallet-save-title">
      <h2 id="wallet-save-title">Save and add to a wallet</h2>
      {!session.ready ? (
        <p role="status">Loading…</p>
      ) : token ? (
        <>
          <div className="wallet-buttons">
            <button type="button" className="button button-primary" onClick={editor.save} disabled={editor.busy}>
              {editor.busy ? 'Saving…' : 'Save'}
            </button>
            {confirmNew ? (
              <InlineConfirm
                label="Start a new pass?"
                question="Discard the unsaved changes?"
                action="New pass"
                onConfirm={startNew}
                onCancel={() => setConfirmNew(false)}
              />
            ) : (
              <button type="button" className="button" onClick={() => (dirty ? setConfirmNew(true) : startNew())}>
                New pass
              </button>
            )}
          </div>
          <p className="wallet-hint">
            {savedId ? (dirty ? 'This pass has unsaved changes.' : 'Saved: everything on the page is in your account.') : 'Not saved yet.'}
          </p>
          {/* Always there, so screen readers hear each new message. */}
          <p className={status ? 'notice notice-success' : 'visually-hidden'} role="status">
            {status}
          </p>
          {error ? (
            <p className="notice notice-error" role="alert">
              {error}
            </p>
          ) : null}
          <WalletButtons
            token={token}
            id={savedId}
            version={editor.version}
            dirty={dirty}
            fields={editor.fields}
            stem={exportStem(editor.draft)}
          />
        </>
      ) : (
        <p className="notice" role="note">
          <strong>Sign in to save this pass and get its wallet links.</strong> Designing and the JSON export work without an account.{' '}
          <Link to={signInPath('/tools/wallet/google/')}>Sign in</Link> or <Link to={PATHS.register}>create a free account</Link>.
        </p>
      )}
    </section>
  );
}
