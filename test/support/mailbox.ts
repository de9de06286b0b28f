// Reads the .eml files the file transport writes under <DATA_DIR>/mail/ (test helper, not a test).
import fs from "node:fs";
import path from "node:path";

export interface ReadMail {
  file: string;
  raw: string;
  to: string;
  subject: string;
  /** the whole message with quoted-printable soft breaks and escapes undone: links can be matched */
  decoded: string;
}

/** Undoes quoted-printable: long lines (links) are folded with "=\n" and "=" is written "=3D". */
export function decodeQuotedPrintable(s: string): string {
  const bytes = s.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

function header(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? "";
  const m = head.match(new RegExp(`^${name}: (.*(?:\\r?\\n[ \\t].*)*)`, "mi"));
  return m ? m[1]!.replace(/\r?\n[ \t]/g, " ").trim() : "";
}

export function readMails(dataDir: string): ReadMail[] {
  const dir = path.join(dataDir, "mail");
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".eml"))
    .sort()
    .map((file) => {
      const raw = fs.readFileSync(path.join(dir, file), "utf8");
      return { file, raw, to: header(raw, "To"), subject: header(raw, "Subject"), decoded: decodeQuotedPrintable(raw) };
    });
}

/** The mails sent to `to` (newest last). */
export const mailsTo = (dataDir: string, to: string) => readMails(dataDir).filter((m) => m.to === to);

/** The first link in the mail whose path matches `pattern`, as a path relative to the base URL. */
export function linkIn(mail: ReadMail, baseUrl: string, pattern: RegExp): string {
  const links = [...mail.decoded.matchAll(/https?:\/\/[^\s"<>]+/g)].map((m) => m[0]);
  const link = links.find((l) => l.startsWith(baseUrl) && pattern.test(l.slice(baseUrl.length)));
  if (!link) throw new Error(`no link matching ${pattern} in ${mail.file}:\n${mail.decoded}`);
  return link.slice(baseUrl.length);
}
