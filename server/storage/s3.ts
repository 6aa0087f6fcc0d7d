import type { Config } from "#server/config.ts";
import { assertValidKey, isValidKey, type Storage } from "./storage.ts";

export interface S3StorageOptions {
  bucket: string;
  /** The service's address (R2, Garage, SeaweedFS, Ceph, MinIO); without it, AWS S3 in `region`. */
  endpoint?: string;
  region: string;
  /** Both or neither; without them the SDK finds credentials itself (AWS_* variables, an instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** `endpoint/bucket/key` addresses instead of `bucket.endpoint/key`: what most self-hosted services need. */
  forcePathStyle: boolean;
  /** Keys asked for per list request; S3 answers at most 1,000. Tests set a few to walk several pages. */
  pageSize?: number;
}

/** The driver's options from the configuration (loadConfig has checked that a bucket is named). */
export function s3Options(config: Config): S3StorageOptions {
  return {
    bucket: config.S3_BUCKET!,
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    credentials:
      config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
        : undefined,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  };
}

/** How long `ready` waits for the bucket before it says the store cannot be reached. */
const READY_TIMEOUT_MS = 5_000;

/**
 * Files in a bucket of any S3-compatible service, under the same keys as on local disk. Objects are written
 * without an ACL, so they take the bucket's own (private unless someone made the bucket public); the app reads
 * them and serves them after its own access checks, exactly as it serves local files (decision 041).
 */
export async function createS3Storage(options: S3StorageOptions): Promise<Storage> {
  // Loaded here, not at the top: a server on local disk never pays for the SDK (about 23 MiB and half a second at
  // start, decision 041), and the compiled server keeps a static import of a package even in a module it loads
  // lazily.
  const { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, ListObjectsV2Command, PutObjectCommand, S3Client } =
    await import("@aws-sdk/client-s3");
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials: options.credentials,
    // Checksums only where the API demands them: several S3-compatible services refuse or mishandle the
    // CRC headers the SDK would otherwise add to every request since 3.729.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const Bucket = options.bucket;
  return {
    async put(key, body) {
      assertValidKey(key);
      // One PutObject is atomic: the object appears whole or not at all, so no temp object is ever listed.
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentLength: body.length }));
    },
    async get(key) {
      assertValidKey(key);
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return Buffer.from(await object.Body!.transformToByteArray());
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async delete(key) {
      assertValidKey(key);
      // S3 answers a delete of a missing key with success, as this interface asks.
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async *list() {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, ContinuationToken, MaxKeys: options.pageSize }));
        for (const object of page.Contents ?? []) {
          // Only the app's own keys: anything else in the bucket is not ours to list (or for the sweep to remove).
          if (object.Key && object.LastModified && isValidKey(object.Key)) {
            yield { key: object.Key, modifiedAt: object.LastModified, size: object.Size ?? 0 };
          }
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async removeUnfinished() {
      // Every write is a single PutObject, which S3 makes visible whole or not at all: a crash mid-write leaves
      // nothing behind. (Multipart uploads, which could leave parts, are not used: files are a few MB at most.)
      return [];
    },
    async ready() {
      await client.send(new HeadBucketCommand({ Bucket }), { abortSignal: AbortSignal.timeout(READY_TIMEOUT_MS) });
    },
  };
}

/** S3's "no such key" (GetObject's NoSuchKey; a HEAD's bare 404 arrives as NotFound). */
function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === "NoSuchKey" || e.$metadata?.httpStatusCode === 404;
}
