// `npm start`: serve the instance with settings from the environment.
import { restoreNativeJson } from "./native-json.ts"; // first: see there
import { loadSettings } from "./config/env.ts";
import { startServer } from "./server.ts";

restoreNativeJson();
const server = await startServer(loadSettings());
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    if (stopping) process.exit(1);
    stopping = true;
    await server.close();
    process.exit(0);
  });
}
