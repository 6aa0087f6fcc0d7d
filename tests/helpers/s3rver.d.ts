/** The part of @20minutes/s3rver (a maintained fork of s3rver, without types of its own) that tests use. */
declare module "@20minutes/s3rver" {
  interface S3rverOptions {
    address: string;
    port: number;
    directory: string;
    silent?: boolean;
    allowMismatchedSignatures?: boolean;
    configureBuckets?: { name: string }[];
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
