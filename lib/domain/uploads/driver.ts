import { type StorageConfig, storageConfig } from "./config.ts";
import type { UploadTarget } from "./keys.ts";
import { localDriver } from "./local-driver.ts";
import { s3Driver } from "./s3-driver.ts";

export interface PresignedPut {
  url: string;
  headers: Record<string, string>;
}

/** One interface, two stores: the local disk (default) and any S3-compatible bucket. */
export interface StorageDriver {
  readonly name: "local" | "s3";
  presignPut(target: UploadTarget): Promise<PresignedPut>;
  /**
   * Whether the signed object has arrived with the signed type and size. Absent when the store
   * reports completion itself (the local storage route marks the upload complete on receipt).
   */
  confirm?(target: Omit<UploadTarget, "expiresAt">): Promise<boolean>;
  /** A link that downloads the object until expiresAt (whole seconds), for exports. */
  presignGet(key: string, expiresAt: Date): Promise<string>;
  /** Removes the object; a missing object is not an error (purges may be retried). */
  deleteObject(key: string): Promise<void>;
}

export function storageDriver(config: StorageConfig = storageConfig()): StorageDriver {
  return config.driver === "s3" ? s3Driver(config.s3) : localDriver(config);
}
