/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * The delivery note and the refund amount: http(s) addresses in a note become links (new tab, no
 * opener) and nothing else does (no javascript: link, no HTML read from the text); the amount typed is
 * checked against what remains in plain words.
 */
import { beforeAll, expect, test } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import type { ComponentType } from 'react';

let LinkedText: ComponentType<{ text: string }>;
let checkRefundAmount: (text: string, remaining: number) => { cents: number } | { error: string };

beforeAll(async () => {
  ({ LinkedText, checkRefundAmount } = await import('./RefundParts'));
});

test('links http(s) addresses only, without the sentence’s last dot; HTML stays text', () => {
  const { container } = render(
    <p>
      <LinkedText text={'Files: https://example.com/a.pdf. Or <b>javascript:alert(1)</b> and http://x.test/q?a=1)'} />
    </p>,
  );
  const links = screen.getAllByRole('link');
  expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://example.com/a.pdf', 'http://x.test/q?a=1']);
  expect(links.every((a) => a.getAttribute('rel') === 'noopener noreferrer' && a.getAttribute('target') === '_blank')).toBe(true);
  expect(container.querySelector('b')).toBeNull();
  expect(container.textContent).toBe('Files: https://example.com/a.pdf. Or <b>javascript:alert(1)</b> and http://x.test/q?a=1)');
});

test('the amount: dollars and cents, more than 0, at most what remains', () => {
  expect(checkRefundAmount('7.5', 750)).toEqual({ cents: 750 });
  expect(checkRefundAmount('$5', 750)).toEqual({ cents: 500 });
  expect(checkRefundAmount('', 750)).toEqual({ error: 'Enter the amount to refund, like 5.00.' });
  expect(checkRefundAmount('5.005', 750)).toEqual({ error: 'Enter the amount in dollars and cents, like 5.00.' });
  expect(checkRefundAmount('0', 750)).toEqual({ error: 'The amount must be more than $0.00.' });
  expect(checkRefundAmount('7.51', 750)).toEqual({ error: 'You can refund at most $7.50, what remains of this order.' });
});
