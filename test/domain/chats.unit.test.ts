// The chat helpers without a server: the idempotency window and the text formatting.
import { expect, test } from "vitest";
import { chatContentHtml, chatLength } from "../../src/domain/chats/chat-content.ts";
import { IDEMPOTENCY_WINDOW_MS, withinIdempotencyWindow } from "../../src/domain/chats/chats.read.ts";

test("the idempotency key shows for the first two minutes only", () => {
  const created = new Date("2026-01-01T12:00:00Z");
  const at = (ms: number) => new Date(created.getTime() + ms);
  expect(IDEMPOTENCY_WINDOW_MS).toBe(120_000);
  expect(withinIdempotencyWindow(created, at(0))).toBe(true);
  expect(withinIdempotencyWindow(created, at(119_999))).toBe(true);
  expect(withinIdempotencyWindow(created, at(120_000))).toBe(false);
  expect(withinIdempotencyWindow(created, at(-1))).toBe(false);
});

test("chat text: the family's entities and line breaks, nothing else", () => {
  expect(chatContentHtml(`a <script>alert('x')</script> & "q"\r\nb\nc`)).toBe("a &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;<br/>b<br/>c");
  expect(chatContentHtml("https://x.test @ann #tag :blob:")).toBe("https://x.test @ann #tag :blob:");
  expect(chatLength("héllo 👋")).toBe(7);
});
