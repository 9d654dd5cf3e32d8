import { describe, expect, it } from "vitest";
import { isLocale, resolveLocale } from "../../../src/locale/locale.js";

describe("resolveLocale", () => {
  it("takes the option before anything in the environment", () => {
    expect(resolveLocale("en", { FLOWER_LANG: "zh", LANG: "zh_CN.UTF-8" })).toBe("en");
    expect(resolveLocale("zh", { FLOWER_LANG: "en_US", LANG: "en_US.UTF-8" })).toBe("zh");
  });

  it.each([
    ["en", "en"],
    ["en_US", "en"],
    ["en_US.UTF-8", "en"],
    ["en-GB", "en"],
    ["EN", "en"],
    [" en_US ", "en"],
    ["zh", "zh"],
    ["zh_CN", "zh"],
    ["zh_TW.UTF-8", "zh"],
    ["ZH-Hans", "zh"],
  ] as const)("honours FLOWER_LANG=%s over a LANG of the other language", (flowerLang, expected) => {
    const otherLang = expected === "en" ? "zh_CN.UTF-8" : "en_US.UTF-8";
    expect(resolveLocale(undefined, { FLOWER_LANG: flowerLang, LANG: otherLang })).toBe(expected);
  });

  it("falls through to LANG when FLOWER_LANG is unset, empty or names another language", () => {
    for (const flowerLang of [undefined, "", "  ", "fr_FR", "C"]) {
      expect(resolveLocale(undefined, { FLOWER_LANG: flowerLang, LANG: "zh_CN.UTF-8" })).toBe("zh");
      expect(resolveLocale(undefined, { FLOWER_LANG: flowerLang, LANG: "de_DE.UTF-8" })).toBe("en");
    }
    expect(resolveLocale(undefined, {})).toBe("en");
  });
});

describe("isLocale", () => {
  it("accepts only the two locales", () => {
    expect(isLocale("zh")).toBe(true);
    expect(isLocale("en")).toBe(true);
    expect(isLocale("en_US")).toBe(false);
    expect(isLocale(undefined)).toBe(false);
  });
});
