// The render ceiling of `npm run bench:http`: a bare Node HTTP server that answers each benchmarked page from
// memory, serialising it with JSON.stringify on every request (what any server must at least do to answer it).
// Usage: node render-ceiling.mjs <pages.json> — {"/path": body, …}; listens on $PORT and prints "listening <port>".
import fs from "node:fs";
import http from "node:http";

const pages = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const server = http.createServer((req, res) => {
  const page = pages[req.url];
  if (page === undefined) {
    res.statusCode = 404;
    return res.end();
  }
  // drain a request body (the GraphQL page is POSTed) before answering, as a real server would read it
  req.resume();
  req.on("end", () => {
    res.setHeader("content-type", "application/json; charset=utf-8");
    res.end(JSON.stringify(page));
  });
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => console.log(`listening ${server.address().port}`));
