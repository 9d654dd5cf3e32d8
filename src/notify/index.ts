/** Telling a person that a run needs them, or has ended (`--notify`): a command or a webhook. */
export { NOTIFY_EVENTS, notificationEnv, type Notification, type NotifyEvent } from "./notification.js";
export {
  NOTIFY_EXPECTED,
  parseNotifyTarget,
  shownTarget,
  type NotifyRefusal,
  type NotifyTarget,
} from "./target.js";
export { Notifier, type NotifierOptions } from "./notifier.js";
export { NOTIFY_TEXT } from "./notify-text.js";
