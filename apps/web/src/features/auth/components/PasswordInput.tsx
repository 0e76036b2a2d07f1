import { useState, type InputHTMLAttributes } from 'react';

/** A password field with a Show/Hide toggle. */
export function PasswordInput(props: InputHTMLAttributes<HTMLInputElement>) {
  const [shown, setShown] = useState(false);
  return (
    <div className="password-field">
      <input {...props} type={shown ? 'text' : 'password'} spellCheck={false} autoCapitalize="none" />
      <button type="button" className="password-toggle" aria-pressed={shown} aria-label="Show password" onClick={() => setShown((s) => !s)}>
        {shown ? 'Hide' : 'Show'}
      </button>
    </div>
  );
}
