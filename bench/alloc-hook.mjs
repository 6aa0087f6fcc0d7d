/**
 * Loaded into the server with `node --import` by bench/alloc-profile.ts: on the first SIGUSR2 it starts V8's sampling
 * heap profiler, counting objects the young and the old generation's collections have already freed (a request's
 * garbage is what we are after, not what survives); on the second it stops and writes the profile as JSON to the file
 * ALLOC_PROFILE_FILE names. Plain JavaScript: Node loads it before the server, with no TypeScript loader.
 */
import fs from "node:fs";
import inspector from "node:inspector";

const session = new inspector.Session();
session.connect();
const post = (method, params) =>
  new Promise((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))));

let sampling = false;
process.on("SIGUSR2", () => {
  const out = process.env.ALLOC_PROFILE_FILE;
  if (!sampling) {
    sampling = true;
    post("HeapProfiler.startSampling", {
      samplingInterval: Number(process.env.ALLOC_SAMPLING_BYTES ?? 1024),
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    }).catch((err) => console.error("alloc-hook: could not start sampling", err));
    return;
  }
  sampling = false;
  post("HeapProfiler.stopSampling", {})
    // Written whole under another name, then renamed: the bench waits for the file to exist, and must never read half.
    .then(({ profile }) => {
      fs.writeFileSync(`${out}.part`, JSON.stringify(profile));
      fs.renameSync(`${out}.part`, out);
    })
    .catch((err) => console.error("alloc-hook: could not stop sampling", err));
});
