/** The workflow's words, per locale: how a step's prompt presents the task and the frozen documents. */
import type { Locale } from "../locale/locale.js";

export const WORKFLOW_TEXT: Readonly<
  Record<
    Locale,
    {
      task: string;
      documents: string;
      file: (path: string) => string;
      degraded: (why: string) => string;
      work: string;
    }
  >
> = {
  zh: {
    task: "用户的任务(原话):",
    documents:
      "下面是这次运行前面几步冻结下来的文书,是磁盘上文件此刻的内容(可能有人改过)。它们是这一步已经确认的依据:和任务原话有出入的地方,以文书为准。",
    file: (path) => `===== 文件 ${path} =====`,
    degraded: (why) => `(注意:这份文书是降级件 —— ${why}。不完整的地方按任务原话和你自己的判断补上。)`,
    work: "按上面的文书把任务做完。",
  },
  en: {
    task: "The user's task, as typed:",
    documents:
      "Below are the documents the earlier steps of this run froze, as the files are on disk now (a person may have edited them). They are the confirmed basis of this step: where they differ from the task as typed, the documents win.",
    file: (path) => `===== File ${path} =====`,
    degraded: (why) =>
      `(Note: this document is degraded — ${why}. Fill the gaps from the task as typed and your own judgement.)`,
    work: "Carry out the task as the documents above describe it.",
  },
};
