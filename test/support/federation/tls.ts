// The test network's certificates: a CA made for these tests (its key was thrown away) and one
// certificate for `fed.test` and every `*.fed.test` name, valid for a century. vitest.config.ts makes
// every test process trust the CA (NODE_EXTRA_CA_CERTS), and spawned servers get the same variable;
// the TLS handshake and host-name checks stay real.
import fs from "node:fs";
import path from "node:path";

const dir = path.join(path.dirname(new URL(import.meta.url).pathname), "pki");

export const CA_CERT_FILE = path.join(dir, "ca.pem");

export function testPki() {
  return { caCert: CA_CERT_FILE, cert: fs.readFileSync(path.join(dir, "server.pem"), "utf8"), key: fs.readFileSync(path.join(dir, "server.key"), "utf8") };
}
