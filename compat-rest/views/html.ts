// Text → HTML for fields users type as plain text (bios, profile fields). Rich formatting and
// sanitising of remote HTML come with statuses (one formatter for both).
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function plainToHtml(text: string): string {
  return escapeHtml(text).replace(/\r?\n/g, "<br/>");
}
