/**
 * The one table of status words, per locale: a step's statuses and a fleet run's. The CLI's tables
 * (`flower runs`, with and without --store) and the live page show the same word for the same status, so
 * they take it from here instead of each keeping a copy (the copies had drifted: 停着 and 暂停 for paused).
 */
import type { Locale } from "./locale.js";

export type StepStatusWord =
  "running" | "done" | "failed" | "stopped" | "goal-not-met" | "budget-reached" | "interrupted" | "paused";

/** A fleet run's statuses beyond a step's; `cancelling` is the live page's while a cancel is on its way. */
export type FleetStatusWord = "queued" | "cancelled" | "cancelling";

export const STATUS_WORDS: Record<Locale, Record<StepStatusWord | FleetStatusWord, string>> = {
  en: {
    running: "running",
    done: "done",
    failed: "failed",
    stopped: "stopped",
    "goal-not-met": "goal not met",
    "budget-reached": "budget reached",
    interrupted: "interrupted",
    paused: "paused",
    queued: "queued",
    cancelled: "cancelled",
    cancelling: "cancelling",
  },
  zh: {
    running: "运行中",
    done: "完成",
    failed: "失败",
    stopped: "已停",
    "goal-not-met": "目标未达成",
    "budget-reached": "预算用完",
    interrupted: "中断",
    paused: "暂停",
    queued: "排队中",
    cancelled: "已取消",
    cancelling: "正在取消",
  },
};
