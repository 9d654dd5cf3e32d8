/**
 * The record of a step by name, or the one clear error for a name that is not recorded: it names the
 * records' location and the steps they know, so a typo is fixed from the message alone. Used wherever
 * a caller names a step (continue, forget/retention).
 */
import { ConfigurationError } from "../errors.js";
import type { RunRecords } from "./run-records.js";
import type { StepRecord } from "./step-record.js";

export function recordedStep(
  records: Pick<RunRecords, "get" | "list" | "location">,
  step: string,
): StepRecord {
  const record = records.get(step);
  if (!record) {
    const known =
      records
        .list()
        .map((s) => s.step)
        .join(", ") || "none";
    throw new ConfigurationError("step", step, `a step recorded in ${records.location} (known: ${known})`);
  }
  return record;
}
