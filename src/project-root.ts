// The repository's folder (the one holding package.json), found from this module's own location so
// that files shipped beside the code (migrations, the admin UI build, media assets) are found both
// when the sources run through tsx/vitest (src/…) and when the server runs bundled from dist/.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "package.json")) && fs.existsSync(path.join(dir, "prisma"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no project folder above ${from}`);
  }
}

export const projectRoot = findRoot(path.dirname(fileURLToPath(import.meta.url)));
