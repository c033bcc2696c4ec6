import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { UPLOAD_URL_LIFETIME_SECONDS } from "../../../registry/operations/uploads.ts";
import { DomainError } from "../../errors/domain-error.ts";
import type { S3Config } from "./config.ts";
import type { PresignedPut, StorageDriver } from "./driver.ts";
import type { UploadTarget } from "./keys.ts";

type Holder = typeof globalThis & { __pdsS3?: { signature: string; client: S3Client } };
const holder = globalThis as Holder;

/** One client per configuration, reused across requests (it keeps its connection pool). */
function clientFor(config: S3Config): S3Client {
  const signature = JSON.stringify(config);
  if (holder.__pdsS3?.signature === signature) return holder.__pdsS3.client;
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials: config.credentials,
    // By default the SDK would presign a CRC32 of the (empty) body it sees at signing time, and the
    // store would then refuse the real bytes; checksums are only added where an API requires them.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  holder.__pdsS3 = { signature, client };
  return client;
}

export function s3Driver(config: S3Config): StorageDriver {
  const client = clientFor(config);
  return {
    name: "s3",
    async presignPut(target: UploadTarget): Promise<PresignedPut> {
      const command = new PutObjectCommand({
        Bucket: config.bucket,
        Key: target.key,
        ContentType: target.contentType,
        ContentLength: target.size,
      });
      const lifetime = UPLOAD_URL_LIFETIME_SECONDS;
      // Signed as headers (not hoisted into the query), so the store refuses any other type or
      // length: a presigned PUT can bind an exact Content-Length only this way.
      const url = await getSignedUrl(client, command, {
        expiresIn: lifetime,
        signingDate: new Date(target.expiresAt.getTime() - lifetime * 1000),
        signableHeaders: new Set(["content-type", "content-length"]),
      });
      return { url, headers: { "Content-Type": target.contentType, "Content-Length": String(target.size) } };
    },
    async presignGet(key: string, expiresAt: Date): Promise<string> {
      const expiresIn = Math.max(1, Math.round((expiresAt.getTime() - Date.now()) / 1000));
      return getSignedUrl(client, new GetObjectCommand({ Bucket: config.bucket, Key: key }), { expiresIn });
    },
    async deleteObject(key: string): Promise<void> {
      // S3 answers 204 for a key that is already gone, so a retried purge succeeds.
      await client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: key }));
    },
    async confirm(target): Promise<boolean> {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: config.bucket, Key: target.key }));
        return head.ContentLength === target.size && head.ContentType === target.contentType;
      } catch (error) {
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        if (status === 404 || status === 403) return false;
        console.error("S3 HeadObject failed", error);
        throw new DomainError("upstream_unavailable", "The storage could not be asked whether the upload arrived.");
      }
    },
  };
}
