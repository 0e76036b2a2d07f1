/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * Error texts people understand (docs/web-app.md#forms-and-error-texts): every code of the catalogue has a
 * sentence, the spec's `error - detail` stays on a details line under it, a code outside the catalogue keeps
 * the spec's text alone, and FormError shows the two as two lines in one alert.
 */
import { describe, expect, it } from '@jest/globals';
import { ERROR_CODES } from '@tinkerdesk/contracts/web';
import { render, screen } from '@testing-library/react';
import { ApiError, errorText, NetworkError } from './api';
import { ERROR_SENTENCES, splitErrorText } from './error-sentences';
import { FormError } from './forms';

describe('error sentences', () => {
  it('every code of the catalogue has a sentence that ends like one and names no code', () => {
    for (const code of ERROR_CODES) {
      const sentence = ERROR_SENTENCES[code];
      expect(sentence).toMatch(/^[A-Z].*\.$/);
      expect(sentence).not.toMatch(/[A-Z]{2,}_[A-Z]/);
    }
  });

  it('URL_NOT_ALLOWED says the address is not reachable from the site, then error - detail', () => {
    const text = errorText(new ApiError(403, 'URL_NOT_ALLOWED', '10.0.0.1 is a private address'));
    expect(text).toBe(
      'That address cannot be reached from this site. Use a public http or https address.\nDetails: URL_NOT_ALLOWED - 10.0.0.1 is a private address',
    );
    expect(splitErrorText(text)).toEqual({
      sentence: 'That address cannot be reached from this site. Use a public http or https address.',
      details: 'URL_NOT_ALLOWED - 10.0.0.1 is a private address',
    });
  });

  it('without a detail the details line is the code alone', () => {
    expect(errorText(new ApiError(500, 'INTERNAL'))).toBe(`${ERROR_SENTENCES.INTERNAL}\nDetails: INTERNAL`);
  });

  it('a code outside the catalogue keeps the spec text, with nothing invented', () => {
    const text = errorText(new ApiError(402, 'CARD_EXPIRED', 'the card has expired'));
    expect(text).toBe('CARD_EXPIRED - the card has expired');
    expect(splitErrorText(text)).toEqual({ sentence: 'CARD_EXPIRED - the card has expired' });
  });

  it('a feature may say a code in its own words (sign-in)', () => {
    expect(errorText(new ApiError(401, 'UNAUTHORIZED', 'wrong'), { UNAUTHORIZED: 'Wrong password.' })).toBe(
      'Wrong password.\nDetails: UNAUTHORIZED - wrong',
    );
  });

  it('no answer at all says so in words', () => {
    expect(errorText(new NetworkError(new TypeError('fetch failed')))).toBe(
      'The server could not be reached. Check your connection and try again.',
    );
  });
});

describe('FormError', () => {
  it('shows the sentence and, on its own line, the details', () => {
    render(<FormError message={errorText(new ApiError(409, 'CONFLICT', 'the slug is taken'))} />);
    const alert = screen.getByRole('alert');
    expect(alert.firstChild?.textContent).toBe(ERROR_SENTENCES.CONFLICT);
    const details = alert.querySelector('.error-details');
    expect(details?.textContent).toBe('Details: CONFLICT - the slug is taken');
  });

  it('shows a plain message as it is, and nothing for no message', () => {
    const { container, rerender } = render(<FormError message="Write a message first." />);
    expect(screen.getByRole('alert').textContent).toBe('Write a message first.');
    expect(container.querySelector('.error-details')).toBeNull();
    rerender(<FormError message="" />);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
