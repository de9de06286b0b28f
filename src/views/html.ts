// Text → HTML for fields users type as plain text (bios, profile fields). Rich formatting and
// sanitising of remote HTML come with statuses (one formatter for both).
import { escapeHtml } from "../kernel/escape.ts";

export { escapeHtml };

export function plainToHtml(text: string): string {
  return escapeHtml(text).replace(/\r?\n/g, "<br/>");
}
