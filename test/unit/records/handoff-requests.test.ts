/**
 * The request channel of `flower handoff` in records.db and the driver's watch over it: a request is
 * seen only by the lease it was addressed to (a later driver never acts on a request meant for an
 * earlier one), a newer request replaces an older one, and taking one by its id leaves a newer one.
 */
import { describe, expect, it } from "vitest";
import type { HandoffRequest } from "../../../src/records/handoff-requests.js";
import { SqliteRunRecords } from "../../../src/storage/sqlite/sqlite-run-records.js";
import { HandoffRequestWatch } from "../../../src/runtime/generations/handoff-request-watch.js";
import { useTempDirs } from "../../support/temp-dir.js";

const temp = useTempDirs();

function request(fields: Partial<HandoffRequest> = {}): HandoffRequest {
  return {
    id: "r1",
    step: "survey",
    lease: "lease-1",
    next: "Sum the counts",
    by: "ann@desk",
    at: "2026-11-30T12:00:00.000Z",
    ...fields,
  };
}

describe("handoff requests in records.db", () => {
  it("are seen by the lease they were addressed to, and by another process's records", () => {
    const runDir = temp.make("flower-requests-");
    const driver = new SqliteRunRecords(runDir);
    const person = new SqliteRunRecords(runDir);
    try {
      person.requests.put(request());
      expect(driver.requests.get("survey", "lease-1")).toEqual(request());
      expect(driver.requests.get("survey", "lease-2")).toBeNull();
      expect(driver.requests.get("other", "lease-1")).toBeNull();
      // A second request replaces the first; taking the first by its id leaves the second.
      person.requests.put(request({ id: "r2", next: null }));
      driver.requests.take("survey", "r1");
      expect(driver.requests.get("survey", "lease-1")).toEqual(request({ id: "r2", next: null }));
      driver.requests.take("survey", "r2");
      expect(driver.requests.get("survey", "lease-1")).toBeNull();
    } finally {
      driver.close();
      person.close();
    }
  });

  it("the watch hands a request out until it is taken, and never again after", () => {
    const runDir = temp.make("flower-requests-");
    const records = new SqliteRunRecords(runDir);
    try {
      const watch = new HandoffRequestWatch(records.requests, "survey", "lease-1");
      expect(watch.pending()).toBeNull();
      records.requests.put(request({ lease: "lease-0" }));
      expect(watch.pending()).toBeNull();
      records.requests.put(request());
      const pending = watch.pending();
      expect(pending?.next).toBe("Sum the counts");
      watch.take(pending!);
      expect(watch.pending()).toBeNull();
      expect(records.requests.get("survey", "lease-1")).toBeNull();
      watch.stop();
    } finally {
      records.close();
    }
  });
});
