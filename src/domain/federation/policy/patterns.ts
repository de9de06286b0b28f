// The family's KeywordPolicy patterns: a plain string matches as a substring; `~r/source/flags` (any
// delimiter, as Elixir sigils allow) is a regular expression. Elixir's flags map onto JavaScript's where
// they exist (i, m, s, u); the others (x, f, U) are dropped. A pattern that does not compile matches nothing.
const CLOSING: Record<string, string> = { "(": ")", "[": "]", "{": "}", "<": ">" };
const cache = new Map<string, RegExp | null>();

function compile(pattern: string): RegExp | null {
  const open = pattern.charAt(2);
  const close = CLOSING[open] ?? open;
  const end = pattern.lastIndexOf(close);
  if (end <= 2) return null;
  const flags = [...new Set(pattern.slice(end + 1).replace(/[^imsu]/g, ""))].join("");
  try {
    return new RegExp(pattern.slice(3, end), `${flags}g`);
  } catch {
    return null;
  }
}

/** The pattern as a global RegExp (strings escaped), or null when it cannot compile. */
export function patternRegExp(pattern: string): RegExp | null {
  if (!cache.has(pattern)) {
    cache.set(pattern, pattern.startsWith("~r") ? compile(pattern) : pattern ? new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "g") : null);
    if (cache.size > 1000) cache.delete(cache.keys().next().value!);
  }
  const re = cache.get(pattern);
  if (re) re.lastIndex = 0;
  return re ?? null;
}

export function matches(text: string, pattern: string): boolean {
  const re = patternRegExp(pattern);
  return re !== null && re.test(text);
}
