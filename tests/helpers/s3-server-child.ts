/**
 * An S3-compatible server for tests (tests/helpers/s3-server.ts starts it): s3rver on loopback, on a port the
 * system picks, keeping objects under <directory>. Prints "listening <port>"; exits when its parent closes stdin.
 *
 * Node's OpenSSL 3 leaves out DES, which s3rver uses for its list continuation tokens: the parent starts this
 * process with --openssl-legacy-provider, so only the stand-in server, never the app, runs with it.
 */
import S3rver from "@20minutes/s3rver";

const [directory, bucket] = process.argv.slice(2);

const server = new S3rver({
  address: "127.0.0.1",
  port: 0,
  directory: directory!,
  silent: true,
  configureBuckets: [{ name: bucket! }],
  // s3rver rebuilds a bucket request's path without the trailing slash the AWS SDK v3 signs ("/bucket/"), so
  // every bucket-level call (list, head) would be refused as badly signed. An unknown access key is still refused.
  allowMismatchedSignatures: true,
});
const { port } = await server.run();
process.stdout.write(`listening ${port}\n`);
process.stdin.on("close", () => void server.close().finally(() => process.exit(0)));
process.stdin.resume();
