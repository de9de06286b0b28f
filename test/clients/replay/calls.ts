// Reads the two call lists of the family's real clients (../shared/notes): every line is a call to
// replay, so a new line in a list is a new test case. Paths are normalised to one placeholder syntax
// (`:name`), the key a replay case is declared under.
import fs from "node:fs";
import path from "node:path";

export interface ClientCall {
  /** which client's source the call comes from (admin-fe, pleroma-fe, megalodon) */
  app: string;
  /** the client function that makes it (the list's name, or the method for megalodon) */
  fn: string;
  method: string;
  /** with `:name` placeholders */
  path: string;
  /** the query string the client sends, with `:name` placeholders ("" when none) */
  query: string;
  /** `METHOD path`: what the replay cases are keyed by */
  key: string;
}

const NOTES = process.env.SHARED_NOTES ?? path.resolve(import.meta.dirname, "../../../../shared/notes");

/** megalodon's verbs: `del`, `postForm` (multipart) … → HTTP methods. */
const MEGALODON_METHOD: Record<string, string> = { get: "GET", post: "POST", put: "PUT", patch: "PATCH", del: "DELETE", postForm: "POST", putForm: "PUT" };

function call(app: string, fn: string, method: string, rawPath: string, query: string): ClientCall {
  // megalodon writes template literals: ${id}, ${encodeURI(emoji)}
  const p = rawPath.replace(/\$\{(?:encodeURI\()?(\w+)\)?\}/g, ":$1");
  const [pathOnly, inlineQuery = ""] = p.split("?");
  const q = query || inlineQuery;
  return { app, fn, method, path: pathOnly!, query: q, key: `${method} ${pathOnly}` };
}

export function adminFeCalls(): ClientCall[] {
  const lines = fs.readFileSync(path.join(NOTES, "adminfe-calls.tsv"), "utf8").split("\n").slice(1).filter(Boolean);
  return lines.map((line) => {
    const [method, p, , app, fn, query = ""] = line.split("\t");
    return call(app!, fn!, method!, p!, query.trim());
  });
}

export function megalodonCalls(): ClientCall[] {
  const lines = fs.readFileSync(path.join(NOTES, "megalodon-pleroma-calls.txt"), "utf8").split("\n").filter((l) => l.trim());
  return lines.map((line) => {
    const [verb, p] = line.trim().split(/\s+/);
    const method = MEGALODON_METHOD[verb!];
    if (!method) throw new Error(`unknown megalodon verb in: ${line}`);
    return call("megalodon", verb!, method, p!, "");
  });
}

/** Both lists, each distinct call once (the lists repeat a few lines verbatim). */
export function allCalls(): ClientCall[] {
  const seen = new Set<string>();
  return [...adminFeCalls(), ...megalodonCalls()].filter((c) => {
    const id = `${c.app} ${c.fn} ${c.key}?${c.query}`;
    return !seen.has(id) && (seen.add(id), true);
  });
}
