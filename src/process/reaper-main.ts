/**
 * The reaper's sweep, run as `node reaper-main.js <tag>` once its driver is gone (reaper.ts starts it):
 * every process carrying the tag is killed, and whatever they forked while dying, until none is left.
 * A process it may not kill is given up on after a bound, so the reaper itself never lingers.
 */
import { endTagged } from "./tagged-processes.js";

const GIVE_UP_AFTER_MS = 30_000;

const tag = process.argv[2];
if (tag !== undefined && tag !== "") await endTagged(tag, GIVE_UP_AFTER_MS);
