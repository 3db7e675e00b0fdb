import DOMPurify from 'dompurify';

/**
 * HTML of a notification template made safe to show (the console spec §2 notifications): the server
 * sanitises it on save (sanitize-html), and the console sanitises it again on display with DOMPurify,
 * so a template stored before (or by another client) never runs a script. The same allow-list as the server's.
 */
const ALLOWED_TAGS = ['p', 'br', 'div', 'span', 'b', 'strong', 'i', 'em', 'u', 's', 'ul', 'ol', 'li', 'a', 'h1', 'h2', 'h3', 'blockquote', 'font'];
const ALLOWED_ATTR = ['href', 'title', 'data-field', 'color'];

export function sanitizeTemplate(html: string): string {
  // Where DOMPurify cannot work (no full DOM), it would hand the HTML back as it is: show it as text instead.
  if (!DOMPurify.isSupported) return html.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return DOMPurify.sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR, ALLOWED_URI_REGEXP: /^(?:https?|mailto):/i });
}
