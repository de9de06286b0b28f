// Secrets are compared in constant time: `safeEqual` (crypto.timingSafeEqual) is right for every input,
// and no source file compares a secret-looking value with `===`/`!==` (a comparison that stops at the
// first differing byte tells an attacker, by its timing, how much of a guess was right). Stored tokens,
// codes and session ids are looked up by their SHA-256 digest, which leaks nothing useful.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { safeEqual } from "../../src/domain/auth/secrets.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SECRET = /(secret|token|password|digest|signature|challenge|verifier|\bmac\b|Mac\b|hmac)/i;
/** comparisons with constants or types, which reveal nothing about a secret's value */
const HARMLESS_OPERAND = /^(undefined|null|""|''|true|false|\d+|typeof|"[\w:.-]*"|'[\w:.-]*')$/;

/** Reviewed comparisons of secret-looking names that are not comparisons of secret values, with why. */
const REVIEWED: Record<string, string> = {
  "src/server.ts: data.ctlSecret === ctlSecret": "the server's own runtime file, read back at shutdown to remove only its own",
  "src/domain/auth/tokens.ops.ts: app.id !== token.appId": "row ids, not secrets",
  "src/domain/auth/credential-watch.ts: token.accountId !== viewer.account.id": "row ids, not secrets",
  "src/domain/accounts/account-actions.ops.ts: password !== confirmation": "both sent by the same client in one request",
  "src/domain/captcha/captcha.ops.ts: data.t !== token": "the CAPTCHA's public token against the signed answer data",
  "src/domain/push/push.ops.ts: ctx.viewer.tokenId === undefined": "a presence check",
  "compat-rest/oauth/mfa.pages.ts: f.challengeType === \"totp\"": "a challenge type name",
  "src/db/migrate.ts: applied.get(d.path) === createHash(\"sha256\").update(d.migrationFile.content.value).digest(\"hex\"": "a migration file's checksum against the one recorded, both public",
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !path.join(e.parentPath, e.name).includes(`${path.sep}generated${path.sep}`))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

describe("timing-safe comparison of secrets", () => {
  test("safeEqual answers like === for any two strings, of equal or different lengths", () => {
    expect(safeEqual("token-abc", "token-abc")).toBe(true);
    expect(safeEqual("token-abc", "token-abd")).toBe(false);
    expect(safeEqual("token-abc", "token-ab")).toBe(false);
    expect(safeEqual("", "")).toBe(true);
    expect(safeEqual("é", "e\u0301")).toBe(false);
    expect(safeEqual("ключ", "ключ")).toBe(true);
  });

  test("no secret-looking value is compared with === or !== in src/ and compat-rest/", () => {
    const found: string[] = [];
    for (const file of [...sourceFiles("src"), ...sourceFiles("compat-rest")]) {
      for (const line of fs.readFileSync(path.join(ROOT, file), "utf8").split("\n")) {
        if (/^\s*(\/\/|\*)/.test(line)) continue;
        const parts = line.split(/(===|!==)/);
        for (let i = 1; i < parts.length; i += 2) {
          const op = parts[i];
          // the operands: the expression text back to the previous and on to the next boundary
          const left = parts[i - 1].split(/&&|\|\||\bif\s*\(|\breturn\b|[;?:{]|[^=!<>]=(?!=)|\(\s*!/).pop()!.trim().replace(/^\(+/, "");
          const right = parts[i + 1].split(/&&|\|\||\?|;|\)\s|,/)[0].trim().replace(/\)+$/, "");
          if (!SECRET.test(left) && !SECRET.test(right)) continue;
          if (HARMLESS_OPERAND.test(left) || HARMLESS_OPERAND.test(right)) continue;
          if (/\.(length|size|kind|type|status|code|count|via)$/.test(left) || /\.(length|size|kind|type|status|code|count|via)$/.test(right)) continue;
          const key = `${file}: ${left} ${op} ${right}`;
          if (!REVIEWED[key]) found.push(key);
        }
      }
    }
    expect(found, "compare secrets with safeEqual (src/domain/auth/secrets.ts), or add a reviewed exception").toEqual([]);
  });
});
