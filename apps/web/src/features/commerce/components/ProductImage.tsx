import type { OrderItem, ProductView } from '@tinkerdesk/contracts/web';
import { useState } from 'react';

/**
 * A product's picture for buyers. An image uploaded to the site comes in sizes (srcset: the browser
 * picks by `sizes`); an https URL the seller gave is shown as it is. Lazy, with width and height so the
 * page does not jump while it loads; an image that fails to load is not shown at all (never a broken frame).
 */
export function ProductImage({
  product,
  sizes = '(max-width: 640px) 100vw, 360px',
  className = 'product-image',
}: {
  product: Pick<ProductView, 'image' | 'images'>;
  sizes?: string;
  className?: string;
}) {
  const [failed, setFailed] = useState(false);
  const { images } = product;
  if (failed || (!images && !product.image)) return null;
  const hide = () => setFailed(true);
  if (!images) {
    return (
      <img className={className} src={product.image!} alt="" width={480} height={270} loading="lazy" decoding="async" onError={hide} />
    );
  }
  const srcSet = [images.small, images.medium, images.large].map((v) => `${v.url} ${v.width}w`).join(', ');
  return (
    <img
      className={className}
      src={images.medium.url}
      srcSet={srcSet}
      sizes={sizes}
      alt=""
      width={images.medium.width}
      height={images.medium.height}
      loading="lazy"
      decoding="async"
      onError={hide}
    />
  );
}

/** The small picture of an order's item (order and receipt pages), when the product had one. */
export function OrderItemImage({ item }: { item: OrderItem }) {
  const [failed, setFailed] = useState(false);
  if (failed || !item.image) return null;
  return (
    <img
      className="order-item-image"
      src={item.image}
      alt=""
      width={48}
      height={48}
      loading="lazy"
      decoding="async"
      onError={() => setFailed(true)}
    />
  );
}
