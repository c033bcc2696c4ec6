import type { UploadPurpose } from "../../../registry/define.ts";

/** `<purpose>/<uuid>`: the only shape a key can have, so no key can name a path outside its folder. */
export const UPLOAD_KEY = /^(avatar|attachment|artwork)\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const isUploadKey = (key: string): boolean => UPLOAD_KEY.test(key);

/** What a storage driver needs to sign one PUT. */
export interface UploadTarget {
  key: string;
  purpose: UploadPurpose;
  contentType: string;
  size: number;
  /** Whole seconds: both drivers sign to the second. */
  expiresAt: Date;
}
