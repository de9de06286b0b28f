import { expect, test } from "vitest";
import { newId } from "../../src/db/ids.ts";

test("ids are 26 lowercase base-32 characters, unique and increasing even within one millisecond", () => {
  const ids = Array.from({ length: 2000 }, () => newId(1_700_000_000_000));
  expect(ids.every((id) => /^[0-9a-hjkmnp-tv-z]{26}$/.test(id))).toBe(true);
  expect(new Set(ids).size).toBe(ids.length);
  expect([...ids].sort()).toEqual(ids);
});

test("ids order by time, and a clock step backwards does not break the order", () => {
  const a = newId(Date.now());
  const b = newId(Date.now() + 10_000);
  const c = newId(Date.now()); // earlier than b: still generated after it
  expect(a < b && b < c).toBe(true);
  // the time prefix of a later millisecond sorts after any id of an earlier one
  expect(newId(Date.now() + 20_000).slice(0, 10) > b.slice(0, 10)).toBe(true);
});
