// Archives from strangers (emoji packs, frontend builds): zip bombs are refused by the bytes actually
// inflated, whatever sizes the archive declares, and entries that would leave their folder refuse it.
import { zipSync } from "fflate";
import { describe, expect, test } from "vitest";
import { buildFiles } from "../../src/domain/frontends/frontends.ops.ts";
import { makeZip, readZip } from "../../src/domain/emoji/zip.ts";

const MB = 1024 * 1024;
/** 64 MB of zeros, deflated to about 64 KB */
const bomb = () => zipSync({ "a.png": [new Uint8Array(64 * MB), { level: 9 }] });

/** The same archive with its local header claiming the entry inflates to `size` bytes. */
function lyingAboutSize(zip: Uint8Array, size: number): Uint8Array {
  const out = zip.slice();
  new DataView(out.buffer).setUint32(22, size, true); // local file header: uncompressed size
  return out;
}

describe("reading zip archives", () => {
  test("a small honest archive is read", () => {
    const files = readZip(makeZip({ "a.png": new Uint8Array([1, 2, 3]), "b.txt": new Uint8Array([4]) }), (n) => n.endsWith(".png"), 1000);
    expect([...files.keys()]).toEqual(["a.png"]);
    expect([...files.get("a.png")!]).toEqual([1, 2, 3]);
  });

  test("a zip bomb is refused by its declared size", () => {
    const zip = bomb();
    expect(zip.length).toBeLessThan(MB);
    expect(() => readZip(zip, () => true, 10 * MB)).toThrow(/exceed 10485760 bytes/);
  });

  test("a zip bomb that lies about its size is refused by what it inflates", () => {
    // declared 100 bytes: only counting the inflated bytes finds the 64 MB
    expect(() => readZip(lyingAboutSize(bomb(), 100), () => true, 1 * MB)).toThrow(/exceed 1048576 bytes/);
  });

  test("zip-slip: an entry leaving the folder refuses the archive", () => {
    for (const name of ["../evil.png", "/etc/evil.png", "a/../../evil.png", "C:/evil.png"]) {
      expect(() => readZip(makeZip({ [name]: new Uint8Array([1]) }), () => true, 1000), name).toThrow(/outside the pack folder/);
    }
  });

  test("frontend builds: the same limits, with the frontend's messages", () => {
    expect(() => buildFiles(lyingAboutSize(zipSync({ "dist/index.html": [new Uint8Array(8 * MB), { level: 9 }] }), 10), "dist", 1 * MB)).toThrow(/expands to more than/);
    expect(() => buildFiles(makeZip({ "dist/../../x.js": new Uint8Array([1]) }), "dist")).toThrow(/points outside the frontend folder/);
    expect(buildFiles(makeZip({ "dist/index.html": new Uint8Array([60]), "README": new Uint8Array([1]) }), "dist").map(([n]) => n)).toEqual(["index.html"]);
  });
});
