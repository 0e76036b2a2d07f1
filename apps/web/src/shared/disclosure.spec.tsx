/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * Inline forms (docs/web-app.md#inline-forms): opening moves the focus into the panel (its first field,
 * else its heading, else its first control); Cancel, Escape and a successful submit close it and give
 * the focus back to the opener, even when the opener was hidden while the panel was open; Escape closes
 * only the innermost panel or confirmation; openers carry aria-expanded and aria-controls. Field errors
 * are named by their field and found from a server refusal's detail.
 */
import { describe, expect, it } from '@jest/globals';
import { ApiError } from './api';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type FormEvent } from 'react';
import { afterRemoval, InlinePanel, useDisclosure } from './disclosure';
import { FieldError, namedError, refusalWords, refusedField } from './forms';
import { InlineConfirm } from './InlineConfirm';

/** A list with an Add button hidden while its form is open, an Edit per row and a Delete that asks first. */
function Rows() {
  const panel = useDisclosure<'new' | 'edit-a' | 'edit-b' | 'delete-a'>();
  const [outerKeys, setOuterKeys] = useState(0);
  const submit = (event: FormEvent) => (event.preventDefault(), panel.close());
  return (
    // The page's own Escape handling (another panel, All Tools): it must not hear an Escape a panel used.
    <div onKeyDown={(e) => e.key === 'Escape' && setOuterKeys((n) => n + 1)}>
      <p>Escapes the page heard: {outerKeys}</p>
      {(['a', 'b'] as const).map((row) => (
        <div key={row}>
          <button type="button" {...panel.opener(`edit-${row}`)}>
            Edit {row}
          </button>
          {row === 'a' ? (
            panel.shown === 'delete-a' ? (
              <InlineConfirm
                label="Delete a?"
                question="Delete it?"
                action="Delete"
                onConfirm={panel.close}
                onCancel={() => panel.close()}
              />
            ) : (
              <button type="button" {...panel.opener('delete-a')}>
                Delete a
              </button>
            )
          ) : null}
          {panel.shown === `edit-${row}` ? (
            <InlinePanel disclosure={panel}>
              <form aria-label={`Edit ${row}`} onSubmit={submit}>
                <h3>Edit {row}</h3>
                <label htmlFor={`name-${row}`}>Name</label>
                <input id={`name-${row}`} />
                <button type="submit">Save</button>
                <button type="button" onClick={() => panel.close()}>
                  Cancel
                </button>
              </form>
            </InlinePanel>
          ) : null}
        </div>
      ))}
      {panel.shown === 'new' ? (
        <InlinePanel disclosure={panel}>
          <section aria-label="Nothing to fill">
            <h3>Nothing to fill</h3>
            <button type="button" onClick={() => panel.close()}>
              Close
            </button>
          </section>
        </InlinePanel>
      ) : (
        <button type="button" {...panel.opener('new')}>
          Add
        </button>
      )}
    </div>
  );
}

describe('useDisclosure', () => {
  it('moves the focus to the first field on opening and back to the opener on Cancel', async () => {
    render(<Rows />);
    const edit = screen.getByRole('button', { name: 'Edit b' });
    expect(edit.getAttribute('aria-expanded')).toBe('false');
    expect(edit.hasAttribute('aria-controls')).toBe(false);
    await userEvent.click(edit);
    const form = screen.getByRole('form', { name: 'Edit b' });
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
    expect(edit.getAttribute('aria-expanded')).toBe('true');
    expect(document.getElementById(edit.getAttribute('aria-controls')!)?.contains(form)).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form')).toBeNull();
    expect(document.activeElement).toBe(edit);
  });

  it('closes on Escape, returns the focus, and the Escape goes no further', async () => {
    render(<Rows />);
    await userEvent.click(screen.getByRole('button', { name: 'Edit a' }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('form')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit a' }));
    expect(screen.getByText('Escapes the page heard: 0')).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    expect(screen.getByText('Escapes the page heard: 1')).toBeTruthy();
  });

  it('gives the focus back after a successful submit, and to an opener hidden while its panel was open', async () => {
    render(<Rows />);
    await userEvent.click(screen.getByRole('button', { name: 'Edit a' }));
    await userEvent.keyboard('Ada{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit a' }));

    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.queryByRole('button', { name: 'Add' })).toBeNull();
    // No field: the heading takes the focus.
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Nothing to fill' }));
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add' }));
  });

  it('Escape on the opener of the open panel closes it (the key goes no further); on another opener it is the page’s', async () => {
    render(<Rows />);
    const edit = screen.getByRole('button', { name: 'Edit b' });
    await userEvent.click(edit);
    edit.focus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('form')).toBeNull();
    expect(edit.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(edit);
    expect(screen.getByText('Escapes the page heard: 0')).toBeTruthy();

    await userEvent.click(edit);
    screen.getByRole('button', { name: 'Edit a' }).focus();
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('form', { name: 'Edit b' })).toBeTruthy();
    expect(screen.getByText('Escapes the page heard: 1')).toBeTruthy();
  });

  it('afterRemoval: the next item, else the one before, else the heading', () => {
    expect(afterRemoval(['a', 'b', 'c'], 1, 'h')).toBe('c');
    expect(afterRemoval(['a', 'b', 'c'], 2, 'h')).toBe('b');
    expect(afterRemoval(['a'], 0, 'h')).toBe('h');
  });

  it('opening another panel closes the first; a confirmation focuses its way back, and Escape answers it', async () => {
    render(<Rows />);
    await userEvent.click(screen.getByRole('button', { name: 'Edit a' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete a' }));
    expect(screen.queryByRole('form')).toBeNull();
    const group = screen.getByRole('group', { name: 'Delete a?' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Keep' }));
    expect(group).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Delete a?' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete a' }));
    expect(screen.getByText('Escapes the page heard: 0')).toBeTruthy();
  });
});

describe('field errors', () => {
  const refusal = (detail: string) => new ApiError(400, 'VALIDATION_FAILED', detail);

  it('finds the field a refusal names at the start of its detail, else none', () => {
    expect(refusedField(refusal('amount must be at least 50'), ['email', 'amount'])).toBe('amount');
    expect(refusedField(refusal('email: not an address'), ['email', 'amount'])).toBe('email');
    expect(refusedField(refusal('amountless is not a field'), ['email', 'amount'])).toBeNull();
    expect(refusedField(new Error('offline'), ['email'])).toBeNull();
  });

  it('words the detail as a sentence and names the field unless the sentence already does', () => {
    expect(refusalWords(refusal('description must be one line of plain text'))).toBe('Description must be one line of plain text.');
    expect(refusalWords(refusal('email: not an address.'))).toBe('Not an address.');
    expect(namedError('Amount', 'Enter an amount, like 12.50.')).toBe('Amount: Enter an amount, like 12.50.');
    expect(namedError('Description', 'Description must be one line.')).toBe('Description must be one line.');
    render(<FieldError id="x-error" name="Email" message="Please enter a valid email address." />);
    expect(document.getElementById('x-error')?.textContent).toBe('Email: Please enter a valid email address.');
  });
});
