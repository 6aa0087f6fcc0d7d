import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";

const child = path.resolve("tests/helpers/s3-server-child.ts");

/** s3rver's one account. */
export const S3_TEST_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export interface TestS3Server {
  endpoint: string;
  /** A bucket made at start. */
  bucket: string;
  /** The configuration that points the app at `bucket` (for createTestServices). */
  env: Record<string, string>;
  /** Makes a new, empty bucket and returns its name. */
  createBucket(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * A real S3-protocol server (s3rver) in a child process on 127.0.0.1, with its objects in a temporary folder:
 * started once per test file (about a second), stopped in afterAll.
 */
export async function startS3Server(): Promise<TestS3Server> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-s3-"));
  const bucket = `ekc-${randomUUID().slice(0, 8)}`;
  const proc = spawn(process.execPath, ["--openssl-legacy-provider", "--import", "tsx", child, dir, bucket], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    let err = "";
    proc.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^listening (\d+)\n/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    proc.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
    proc.on("error", reject);
    proc.on("exit", (code, signal) => reject(new Error(`the S3 test server exited (${code ?? signal}): ${out}${err}`)));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials: S3_TEST_CREDENTIALS });
  return {
    endpoint,
    bucket,
    env: {
      STORAGE: "s3",
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: "true",
    },
    async createBucket() {
      const name = `ekc-${randomUUID().slice(0, 8)}`;
      await client.send(new CreateBucketCommand({ Bucket: name }));
      return name;
    },
    async stop() {
      client.destroy();
      if (proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise((resolve) => proc.once("exit", resolve));
        proc.stdin!.end();
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
