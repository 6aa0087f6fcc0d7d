import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * A self-signed certificate and its key in one PEM file in `dir`, as HAProxy's `crt` takes them, made with OpenSSL for
 * one test run (a day's validity). Returns the file's path.
 */
export function selfSignedPem(dir: string, commonName: string): string {
  const pem = path.join(dir, "site.pem");
  const [key, crt] = [`${pem}.key`, `${pem}.crt`];
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", `/CN=${commonName}`, "-keyout", key, "-out", crt],
    {
      stdio: "ignore",
    },
  );
  fs.writeFileSync(pem, fs.readFileSync(crt, "utf8") + fs.readFileSync(key, "utf8"));
  return pem;
}
