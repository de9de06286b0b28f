// Test-only preload (node --import): host names under `.test` resolve to loopback addresses named in
// TEST_HOSTS ("a.fed.test=127.0.9.1,b.fed.test=127.0.9.1"; a name not listed resolves to TEST_HOSTS_DEFAULT
// when set), so servers federating in tests use real host names, real TLS and real signatures without
// touching /etc/hosts. Patched at call time: code that reads dns.lookup / dns.promises.lookup sees it.
import dns from "node:dns";

export function testHosts() {
  const map = new Map();
  for (const pair of (process.env.TEST_HOSTS ?? "").split(",").filter(Boolean)) {
    const [name, address] = pair.split("=");
    map.set(name.toLowerCase(), address);
  }
  return map;
}

function resolveTestHost(hostname) {
  const host = String(hostname).toLowerCase();
  if (!host.endsWith(".test")) return null;
  return testHosts().get(host) ?? process.env.TEST_HOSTS_DEFAULT ?? null;
}

const originalLookup = dns.lookup;
dns.lookup = function lookup(hostname, options, callback) {
  const cb = typeof options === "function" ? options : callback;
  const opts = typeof options === "function" ? {} : typeof options === "number" ? { family: options } : (options ?? {});
  const address = resolveTestHost(hostname);
  if (!address) return originalLookup.call(dns, hostname, options, callback);
  process.nextTick(() => (opts.all ? cb(null, [{ address, family: 4 }]) : cb(null, address, 4)));
};

const originalPromiseLookup = dns.promises.lookup;
dns.promises.lookup = async function lookup(hostname, options) {
  const address = resolveTestHost(hostname);
  if (!address) return originalPromiseLookup.call(dns.promises, hostname, options);
  const opts = typeof options === "number" ? { family: options } : (options ?? {});
  return opts.all ? [{ address, family: 4 }] : { address, family: 4 };
};
