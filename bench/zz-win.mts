import autocannon from "autocannon";
import fs from "node:fs";
const [pid, url, windows = "12", secs = "10"] = process.argv.slice(2);
const cookie = fs.readFileSync("/tmp/s22cookie", "utf8").trim();
const tick = () => { const f = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" "); return (Number(f[11]) + Number(f[12])) * 10; };
for (let w = 0; w < Number(windows); w++) {
  const c0 = tick();
  const r = await autocannon({ url, connections: 10, duration: Number(secs), headers: { cookie } });
  const c1 = tick();
  console.log(`window ${w + 1}: ${r.requests.average} req/s, ${((c1 - c0) / r.requests.total).toFixed(3)} ms CPU a request, load ${(await import("node:os")).loadavg()[0].toFixed(2)}`);
}
