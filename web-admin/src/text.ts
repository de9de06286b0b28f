/** Status content is HTML: the admin UI shows its text only (no markup of remote origin in our page). */
export function htmlToText(html: string): string {
  return new DOMParser().parseFromString(html, "text/html").body.textContent ?? "";
}
