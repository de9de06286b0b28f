// SimplePolicy's whole-activity rules, on the runtime settings as the server reads them: Flags (reports)
// from `report_removal` hosts and Deletes from `reject_deletes` hosts are dropped by the common inbound
// start (src/federation/inbox/inbound.ts) before any listener runs; subdomains are covered.
import { describe, expect, test } from "vitest";
import { loadSettings } from "../../src/config/env.ts";
import { defaultRuntimeSettings, type RuntimeConfig } from "../../src/config/runtime.ts";
import { refusedActivity } from "../../src/domain/federation/policy/index.ts";
import { patternRegExp } from "../../src/domain/federation/policy/patterns.ts";

function configWith(mrfSimple: Partial<ReturnType<typeof defaultRuntimeSettings>["mrf_simple"]>): RuntimeConfig {
  const settings = defaultRuntimeSettings(loadSettings({ BASE_URL: "https://a.example" }));
  Object.assign(settings.mrf_simple, mrfSimple);
  return { get: (g, k) => settings[g][k], group: (g) => settings[g], reload: async () => {} };
}

describe("SimplePolicy activity rules", () => {
  test("report_removal drops Flags, reject_deletes drops Deletes, of the listed hosts and their subdomains only", () => {
    const config = configWith({ report_removal: [{ host: "spam.example", reason: "" }], reject_deletes: [{ host: "*.keep.example", reason: "" }] });
    expect(refusedActivity(config, ["Flag"], "spam.example")).toMatch(/reports/);
    expect(refusedActivity(config, ["Flag"], "sub.spam.example")).toMatch(/reports/);
    expect(refusedActivity(config, ["Flag"], "other.example")).toBeNull();
    expect(refusedActivity(config, ["Create"], "spam.example")).toBeNull();
    expect(refusedActivity(config, ["Delete"], "a.keep.example")).toMatch(/deletes/);
    expect(refusedActivity(config, ["Delete"], "spam.example")).toBeNull();
  });
});

test("keyword patterns: substrings literally, ~r sigils as regexes with the flags JavaScript knows", () => {
  expect(patternRegExp("a.b")!.test("axb")).toBe(false);
  expect(patternRegExp("~r/buy\\s+now/iu")!.test("BUY  now")).toBe(true);
  expect(patternRegExp("~r{x+}")!.test("xxx")).toBe(true);
  expect(patternRegExp("~r/(/")).toBeNull();
});
