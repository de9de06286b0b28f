// msgpackr wraps this require in try/catch and falls back to its JavaScript decoder.
throw new Error("msgpackr-extract is stubbed out (see package.json)");
