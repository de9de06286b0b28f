// A list as the reference API renders it.
import type { List } from "../../src/generated/prisma/client.ts";

export function renderList(list: List) {
  return { id: list.id, title: list.title, replies_policy: list.repliesPolicy, exclusive: list.exclusive };
}
