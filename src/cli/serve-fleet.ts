/**
 * SEAM(fleet): what the live page takes from the fleet's queue (src/fleet, issue 25): approve and
 * cancel. The page never changes a run itself; it passes the verb on to the one owner of the queue.
 * Until the fleet's API is in this build, an action is refused with that reason (409 on the page).
 */
import type { RunActions } from "../serve/run-source.js";
import type { StoreOption } from "./store-option.js";

export function fleetActions(_store: StoreOption): RunActions {
  const missing = async (verb: string) => {
    throw new Error(`${verb} needs the fleet's queue, which this build does not have`);
  };
  return { approve: () => missing("approve"), cancel: () => missing("cancel") };
}
