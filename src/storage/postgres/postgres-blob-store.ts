/** Spill blobs in the store's `flower_blobs` table (see session-layers/blob-store.ts). */
import type { Pool } from "pg";
import { ConfigurationError } from "../../errors.js";
import { blobAddress, isAddressPrefix, type BlobStore } from "../../session-layers/blob-store.js";

export class PostgresBlobStore implements BlobStore {
  readonly #pool: () => Promise<Pool>;
  readonly #table: string;

  /** `pool` resolves once the schema is migrated; `schema` is already quoted. */
  constructor(pool: () => Promise<Pool>, schema: string) {
    this.#pool = pool;
    this.#table = `${schema}.flower_blobs`;
  }

  async put(content: string): Promise<string> {
    if (typeof content !== "string") throw new ConfigurationError("content", content, "a string");
    const address = blobAddress(content);
    const pool = await this.#pool();
    await pool.query(
      `INSERT INTO ${this.#table} (address, content) VALUES ($1, $2) ON CONFLICT (address) DO NOTHING`,
      [address, content],
    );
    return address;
  }

  async get(addressPrefix: string): Promise<string | null> {
    if (!isAddressPrefix(addressPrefix))
      throw new ConfigurationError("addressPrefix", addressPrefix, "16 to 64 lowercase hex digits");
    const pool = await this.#pool();
    // A range on the C-collated key instead of LIKE: the btree answers it directly.
    const { rows } = await pool.query<{ content: string }>(
      `SELECT content FROM ${this.#table} WHERE address >= $1 AND address < $2 ORDER BY address LIMIT 1`,
      [addressPrefix, `${addressPrefix}g`],
    );
    return rows[0]?.content ?? null;
  }
}
