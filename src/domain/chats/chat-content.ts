// Chat message text: only basic escaping and line breaks, as the spec says (no links, mentions or
// markup). The entities are the family's (Phoenix's html_escape), so stored content matches theirs.
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function chatContentHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]).replace(/\r?\n/g, "<br/>");
}

/** Length as the family counts it (characters, not UTF-16 units). */
export function chatLength(text: string): number {
  return [...text].length;
}
