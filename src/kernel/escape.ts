/** Escapes text for HTML and XML (text and attribute values): numeric references are valid in both. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
