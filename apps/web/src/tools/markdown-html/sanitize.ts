import render from 'dom-serializer';
import { Element, type ChildNode } from 'domhandler';
import createDOMPurify from 'dompurify';
import { parseDocument } from 'htmlparser2';

/**
 * The preview's sanitizer (DOMPurify, its own instance so its hooks touch nothing else): no scripts,
 * event handlers, javascript: URLs, forms, frames or styles that could leave the box. Links open in a
 * new tab without access to this page. Images from other sites are not fetched (the site's content
 * security policy allows only its own, data: and blob: images, and a preview must not ping third
 * parties): they keep their alt text and say why.
 */
const purify = createDOMPurify(window);

purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
  }
  if (node.tagName === 'IMG') {
    const src = node.getAttribute('src') ?? '';
    if (!/^(data:image\/|blob:)/i.test(src)) {
      node.removeAttribute('src');
      node.removeAttribute('srcset');
      node.setAttribute('data-blocked-src', src);
      node.setAttribute('title', `Not loaded in the preview: ${src}`);
      node.classList.add('blocked-image');
      if (!node.getAttribute('alt')) node.setAttribute('alt', 'image');
    }
  }
});

/**
 * Drops event-handler attributes before any DOM sees the HTML. DOMPurify would remove them too, but
 * Chromium reports every on* attribute it parses (even in an inert document) as a violation of the
 * site's content security policy (script-src-attr 'none'), filling the console for harmless input.
 * htmlparser2 parses without a DOM; this step is tidiness, DOMPurify remains the sanitizer.
 */
function withoutEventHandlers(html: string): string {
  if (!/[\s/"']on[a-z]+\s*=/i.test(html)) return html;
  const document = parseDocument(html, { decodeEntities: true });
  const scrub = (nodes: ChildNode[]) => {
    for (const node of nodes) {
      if (!(node instanceof Element)) continue;
      for (const name of Object.keys(node.attribs)) if (/^on/i.test(name)) delete node.attribs[name];
      scrub(node.children);
    }
  };
  scrub(document.children);
  return render(document, { decodeEntities: true, encodeEntities: 'utf8' });
}

export function sanitizePreview(html: string): string {
  return purify.sanitize(withoutEventHandlers(html), {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'button', 'select', 'textarea', 'iframe', 'object', 'embed'],
    FORBID_ATTR: ['style'],
    ADD_ATTR: ['target'],
  });
}
