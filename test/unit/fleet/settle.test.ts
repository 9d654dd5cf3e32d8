/**
 * What a worker writes when its turn with a run ends (src/fleet/settle.ts), against an in-memory store:
 * a reached end keeps its status whatever stop came after it; a cancel ends `cancelled`; a shutdown gives
 * the run back with a new job before the old one is completed; a run taken from the worker is left alone;
 * a write refused (the row is not the worker's any more) changes nothing else.
 */
import { describe, expect, it } from "vitest";
import { FleetEvents, type FleetEvent } from "../../../src/fleet/fleet-events.js";
import { settle, type Settle } from "../../../src/fleet/settle.js";
import type { FleetRun } from "../../../src/records/fleet-run.js";
import type { FleetStore } from "../../../src/storage/fleet-store.js";

function fakeStore(owned = true) {
  const calls: string[] = [];
  const store = {
    runs: {
      finish: async (run: string, _token: string, status: string, fields: { job?: string | null }) => {
        calls.push(`finish ${run} ${status}${fields.job ? ` job=${fields.job}` : ""}`);
        return owned;
      },
    },
    queue: {
      send: async (run: string) => {
        calls.push(`send ${run}`);
        return "job-2";
      },
      complete: async (id: string) => void calls.push(`complete ${id}`),
      cancel: async (id: string) => void calls.push(`cancel ${id}`),
    },
  } as unknown as FleetStore;
  return { store, calls };
}

const run = { run: "r", job: "job-1" } as FleetRun;

async function settled(
  stop: Settle["stop"],
  outcome: Settle["outcome"],
  owned = true,
): Promise<{ calls: string[]; events: FleetEvent[] }> {
  const { store, calls } = fakeStore(owned);
  const events = new FleetEvents();
  const seen: FleetEvent[] = [];
  events.on((event) => seen.push(event));
  await settle(store, { run, token: "t", stop, outcome, events });
  return { calls, events: seen };
}

describe("settle", () => {
  it("a reached end keeps its status, whatever stop came after it", async () => {
    for (const status of ["done", "goal-not-met", "paused"] as const) {
      for (const stop of [null, "cancel", "shutdown"] as const) {
        const { calls } = await settled(stop, { status, error: null });
        expect(calls).toEqual([`finish r ${status}`, "complete job-1"]);
      }
    }
  });

  it("a stop asked by cancel ends cancelled; one nobody asked for is a failure", async () => {
    expect((await settled("cancel", { status: "stopped", error: null })).calls).toEqual([
      "finish r cancelled",
      "complete job-1",
    ]);
    const unasked = await settled(null, { status: "stopped", error: null });
    expect(unasked.calls[0]).toBe("finish r failed");
    expect(unasked.events).toEqual([
      { type: "run-status", run: "r", status: "failed", error: "the run stopped without being asked to" },
    ]);
  });

  it("a shutdown gives the run back with a new job first, then completes the old one", async () => {
    const { calls, events } = await settled("shutdown", { status: "stopped", error: null });
    expect(calls).toEqual(["send r", "finish r queued job=job-2", "complete job-1"]);
    expect(events).toEqual([{ type: "run-status", run: "r", status: "queued", why: "released" }]);
  });

  it("a run taken from the worker, or whose row refuses the write, is left to its new holder", async () => {
    expect(await settled("lost", { status: "stopped", error: null })).toEqual({
      calls: [],
      events: [{ type: "run-status", run: "r", status: "lost" }],
    });
    expect((await settled(null, { status: "done", error: null }, false)).calls).toEqual(["finish r done"]);
    expect((await settled("shutdown", { status: "stopped", error: null }, false)).calls).toEqual([
      "send r",
      "finish r queued job=job-2",
      "cancel job-2",
    ]);
  });
});
