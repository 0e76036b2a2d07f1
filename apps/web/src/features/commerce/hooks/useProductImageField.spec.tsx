/** @jest-environment ./apps/web/test/jsdom-environment.mjs */
/**
 * The image field's state: what the product save sends as `image` (a URL typed or changed, null when
 * removed, nothing to keep what is there), the refusals of a chosen file in plain words, and the preview.
 * The upload itself goes through the real gateway in e2e/commerce-images.e2e.ts.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ProductView } from '@tinkerdesk/contracts/web';
import type { ReactNode } from 'react';
import { IMAGE_TEXTS } from '../product-image-rules';
import { useProductImageField } from './useProductImageField';

beforeAll(() => {
  // jsdom has no object URLs.
  URL.createObjectURL = () => 'blob:preview';
  URL.revokeObjectURL = () => undefined;
});

const variant = (size: string, width: number) => ({ url: `/v1/products/p1/image/0123456789abcdef/${size}`, width, height: width / 2 });

function product(fields: Partial<ProductView>): ProductView {
  return {
    id: 'p1',
    serviceId: 's1',
    userId: 'u1',
    name: 'Poster',
    description: '',
    price: 1250,
    currency: 'USD',
    image: null,
    images: null,
    active: true,
    shipping: null,
    created: '2026-11-25T00:00:00.000Z',
    modified: '2026-11-25T00:00:00.000Z',
    ...fields,
  };
}

const uploaded = product({
  image: variant('medium', 480).url,
  images: { version: '0123456789abcdef', small: variant('small', 160), medium: variant('medium', 480), large: variant('large', 1200) },
});
const linked = product({ image: 'https://img.example/poster.jpg' });

function field(existing: ProductView | undefined) {
  const client = new QueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return renderHook(() => useProductImageField('u1', 's1', existing), { wrapper });
}

const file = (type: string, size = 100) => new File([new Uint8Array(size)], 'f', { type });

describe('useProductImageField', () => {
  it('keeps an uploaded image unless asked: no URL in the field, nothing sent; the preview is its small size', () => {
    const { result } = field(uploaded);
    expect(result.current.url).toBe('');
    expect(result.current.imageBody()).toBeUndefined();
    expect(result.current.shown).toBe(variant('small', 160).url);
    act(() => result.current.setUrl('https://img.example/other.jpg'));
    expect(result.current.imageBody()).toBe('https://img.example/other.jpg');
  });

  it('removing sends null (which removes an upload too) and shows nothing', () => {
    for (const existing of [uploaded, linked]) {
      const { result } = field(existing);
      act(() => result.current.drop());
      expect(result.current.imageBody()).toBeNull();
      expect(result.current.shown).toBeNull();
    }
  });

  it('sends an https URL only when it changed', () => {
    const { result } = field(linked);
    expect(result.current.url).toBe('https://img.example/poster.jpg');
    expect(result.current.imageBody()).toBeUndefined();
    act(() => result.current.setUrl(''));
    expect(result.current.imageBody()).toBeNull();
    const created = field(undefined);
    expect(created.result.current.imageBody()).toBeUndefined();
  });

  it('a chosen picture waits for the save with its preview; a refused file says why and changes nothing', () => {
    const { result } = field(linked);
    act(() => result.current.choose(file('text/plain')));
    expect(result.current.problem).toBe(IMAGE_TEXTS.notImage);
    expect(result.current.shown).toBe('https://img.example/poster.jpg');
    act(() => result.current.choose(file('image/png', 11 * 1024 * 1024)));
    expect(result.current.problem).toBe(IMAGE_TEXTS.tooBig);
    act(() => result.current.choose(file('image/png')));
    expect(result.current.problem).toBe('');
    expect(result.current.shown).toBe('blob:preview');
    // The upload replaces the URL on the server: the save sends no image.
    expect(result.current.imageBody()).toBeUndefined();
  });
});
