/**
 * Content-addressed blobs: the spill files the trim pass writes on load, kept by the store as well, so a
 * second machine with a fresh checkout (no `.flower/spill/`) can write a resumed transcript's spill files
 * back before the agent reads them. A blob's address is the sha256 of its UTF-8 content (lowercase hex);
 * the spill file name carries the first 20 hex digits of it, so `get` takes a prefix.
 */
import { createHash } from "node:crypto";

export interface BlobStore {
  /** Stores `content` (idempotent) and returns its address. */
  put(content: string): Promise<string>;
  /**
   * The content whose address starts with `addressPrefix` (at least 16 lowercase hex digits), or null.
   * Two blobs sharing such a prefix would need a sha256 collision on 64+ bits; the first is returned.
   */
  get(addressPrefix: string): Promise<string | null>;
}

/** The address of `content`: sha256 of its UTF-8 bytes, lowercase hex (the same hash the spill file name uses). */
export function blobAddress(content: string): string {
  return createHash("sha256").update(content).digest("hex");
}

const PREFIX = /^[0-9a-f]{16,64}$/;

/** True for a valid address prefix; a store rejects anything else before it reaches a query. */
export function isAddressPrefix(value: unknown): value is string {
  return typeof value === "string" && PREFIX.test(value);
}
