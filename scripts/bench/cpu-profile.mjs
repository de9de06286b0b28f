// Loaded into the benchmarked server with --import when BENCH_CPU_PROF is set (NODE_OPTIONS may not
// carry --cpu-prof): profiles from start-up and writes a .cpuprofile (Chrome DevTools) on SIGUSR2, to
// CPU_PROF_FILE ("{pid}" in it becomes the process id: a benchmark may run several servers).
import fs from "node:fs";
import inspector from "node:inspector";

const session = new inspector.Session();
session.connect();
session.post("Profiler.enable", () => session.post("Profiler.start"));
process.on("SIGUSR2", () => {
  session.post("Profiler.stop", (error, result) => {
    if (!error) fs.writeFileSync((process.env.CPU_PROF_FILE ?? "server-{pid}.cpuprofile").replace("{pid}", String(process.pid)), JSON.stringify(result.profile));
    session.post("Profiler.start");
  });
});
