import { describe, expect, it } from "vitest";
import { Handoff } from "../../../src/handoff/handoff-document.js";
import { DEGRADED } from "../../../src/handoff/degraded.js";

const SEED = new Handoff({
  step: "干活",
  doing: "在给 Makefile 加 macOS 垫片头,让 sigemptyset 宏不再展开成语法错误。",
  decided: "不改业务源码 —— 用户明确说过边界,所以走 Makefile 生成 shim 这条路。",
  next: "在干净 clone 上跑一次 make 验证 shim 成立。",
});

describe("Handoff", () => {
  it("checks only doing and next", () => {
    expect(SEED.missing()).toEqual([]);
    expect(SEED.complete()).toBe(true);
    expect(new Handoff({ doing: "x" }).missing()).toEqual(["next"]);
    expect(new Handoff({ next: "x", decided: "y" }).missing()).toEqual(["doing"]);
    expect(new Handoff({ decided: "a", deadends: "b", scene: "c" }).missing()).toEqual(["doing", "next"]);
    expect(new Handoff({ doing: "  \n ", next: "x" }).missing()).toEqual(["doing"]);
  });

  it("drops blank lines and rules at a section's edges, keeps them inside", () => {
    const handoff = new Handoff({ doing: "\n---\n  a\n\n* * *\nb  \n___\n", next: "- - -" });
    expect(handoff.doing).toBe("a\n\n* * *\nb");
    expect(handoff.next).toBe("");
    expect(handoff.missing()).toEqual(["next"]);
  });

  it("renders the zh document with (空) for empty sections", () => {
    expect(SEED.toMarkdown("zh")).toBe(
      [
        "# 交接:干活",
        "",
        "## 现在在做什么",
        "在给 Makefile 加 macOS 垫片头,让 sigemptyset 宏不再展开成语法错误。",
        "",
        "## 已经定下的",
        "不改业务源码 —— 用户明确说过边界,所以走 Makefile 生成 shim 这条路。",
        "",
        "## 走不通的路",
        "(空)",
        "",
        "## 下一步",
        "在干净 clone 上跑一次 make 验证 shim 成立。",
        "",
        "## 现场",
        "(空)",
        "",
      ].join("\n"),
    );
  });

  it("renders the en document with (empty)", () => {
    const markdown = new Handoff({ step: "build", doing: "d", next: "n" }).toMarkdown("en");
    expect(markdown).toBe(
      "# Handoff: build\n\n## What I am doing\nd\n\n## Already decided\n(empty)\n\n## Dead ends\n(empty)\n\n## Next step\nn\n\n## Scene\n(empty)\n",
    );
  });

  it("uses the step only in the title", () => {
    expect(new Handoff({ doing: "d", next: "n" }).toMarkdown("zh").startsWith("# 交接\n")).toBe(true);
    expect(new Handoff({ step: "a", doing: "d" }).toMarkdown("zh").replace("# 交接:a", "")).toBe(
      new Handoff({ step: "b", doing: "d" }).toMarkdown("zh").replace("# 交接:b", ""),
    );
  });

  it("tells the successor it is taking over, in both locales", () => {
    const zh = SEED.promptBlock("zh");
    expect(zh.startsWith("你在接手「干活」这一步。")).toBe(true);
    expect(zh).toContain("不要回头问人要背景");
    expect(zh).toContain(SEED.toMarkdown("zh"));
    const en = SEED.promptBlock("en");
    expect(en.startsWith('You are taking over the step "干活".')).toBe(true);
    expect(en).toContain("do not ask anyone for background");
    expect(en).toContain(SEED.toMarkdown("en"));
    expect(zh).not.toContain("降级件");
  });

  it("degraded is a read-only getter on the marker in doing", () => {
    const handoff = new Handoff({ doing: `${DEGRADED} 没写成`, next: "看现场" });
    expect(handoff.degraded).toBe(true);
    expect(SEED.degraded).toBe(false);
    expect(new Handoff({ doing: "x", next: "y", scene: DEGRADED }).degraded).toBe(false);
    expect(() => {
      (handoff as unknown as { degraded: boolean }).degraded = false;
    }).toThrow(TypeError);
    expect(handoff.promptBlock("zh")).toContain("这份交接是降级件");
    expect(handoff.promptBlock("en")).toContain("this handoff is degraded");
  });

  it("normalises line endings and surrounding blank space", () => {
    const handoff = new Handoff({ doing: "\n\n  a  \r\n  b\t\r\n\n", next: "n" });
    expect(handoff.doing).toBe("a\n  b");
    expect(handoff.sections()).toEqual({ doing: "a\n  b", decided: "", deadends: "", next: "n", scene: "" });
  });
});
