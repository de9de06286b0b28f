// The conversion of a family server's configuration for `ctl config migrate` (src/cli/config-migrate.ts).
import { describe, expect, test } from "vitest";
import { familyConfigItems } from "../../src/cli/config-migrate.ts";

describe("familyConfigItems", () => {
  test("the nested config.exs form: groups, keys, and objects as keyword lists", () => {
    const items = familyConfigItems({
      pleroma: { instance: { name: "Mine", limit: 7000, poll_limits: { max_options: 4 } } },
      ":pleroma": { "Pleroma.Web.Endpoint": { url: { host: "x.test" } }, ":mrf": { policies: ["Pleroma.Web.ActivityPub.MRF.SimplePolicy"] } },
      ":logger": { ":backends": [":console"] },
    });
    expect(items).toEqual([
      { group: ":pleroma", key: ":instance", value: [{ tuple: [":name", "Mine"] }, { tuple: [":limit", 7000] }, { tuple: [":poll_limits", [{ tuple: [":max_options", 4] }]] }] },
      { group: ":pleroma", key: "Pleroma.Web.Endpoint", value: [{ tuple: [":url", [{ tuple: [":host", "x.test"] }]] }] },
      { group: ":pleroma", key: ":mrf", value: [{ tuple: [":policies", ["Pleroma.Web.ActivityPub.MRF.SimplePolicy"]] }] },
      { group: ":logger", key: ":backends", value: [":console"] },
    ]);
  });

  test("the admin API's list form, bare or under configs, is taken as it is", () => {
    const list = [{ group: ":pleroma", key: ":instance", value: [{ tuple: [":name", "A"] }], db: [":name"] }];
    expect(familyConfigItems(list)).toEqual([{ group: ":pleroma", key: ":instance", value: [{ tuple: [":name", "A"] }] }]);
    expect(familyConfigItems({ configs: list, need_reboot: false })).toEqual(familyConfigItems(list));
  });

  test("shapes it cannot read are refused with the place", () => {
    expect(() => familyConfigItems([{ group: ":pleroma" }])).toThrow("item 0: expected {group, key, value}");
    expect(() => familyConfigItems({ ":pleroma": 5 })).toThrow("group :pleroma: expected an object of keys");
    expect(() => familyConfigItems("x")).toThrow();
  });
});
