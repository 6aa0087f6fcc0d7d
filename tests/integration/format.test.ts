import { afterEach, describe, expect, it, vi } from "vitest";
import { formatDateTime, formatDay, formatKm, formatLongDate, pakistanTimestamp } from "#shared/format.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("dates and numbers as the product shows them", () => {
  const moment = new Date("2026-11-23T10:05:09Z"); // 15:05:09 in Pakistan (UTC+05:00)

  it("writes a moment in Pakistan's time, in either language", () => {
    expect(formatDateTime(moment, "en")).toEqual({ iso: "2026-11-23T10:05:09.000Z", text: expect.stringMatching(/23.*Nov.*2026.*3:05/) });
    expect(formatDateTime(moment, "ur").text).toMatch(/2026/);
    expect(formatDateTime(moment, "ur").text).not.toBe(formatDateTime(moment, "en").text);
    expect(formatLongDate(moment, "en").text).toBe("23 November 2026");
    expect(pakistanTimestamp(moment)).toBe("2026-11-23 15:05:09");
    // Just before midnight UTC is already the next day in Pakistan.
    expect(formatLongDate(new Date("2026-11-23T20:00:00Z"), "en").text).toBe("24 November 2026");
  });

  it("writes a calendar day in each style, and an unreadable day as it came", () => {
    expect(formatDay("2026-11-23", "en", "short")).toBe("23 Nov 2026");
    expect(formatDay("2026-11-23", "en", "month")).toBe("Nov 2026");
    expect(formatDay("2026-11-23", "en", "year")).toBe("2026");
    expect(formatDay("not-a-day", "en")).toBe("not-a-day");
  });

  it("makes each date format once per language and style, not once per row", () => {
    // Warm every format these calls use, then count: a list page formats every row with the same few formats.
    const all = () => {
      formatDateTime(moment, "en");
      formatDateTime(moment, "ur");
      formatLongDate(moment, "en");
      formatDay("2026-11-23", "ur", "weekday");
    };
    all();
    const made = vi.spyOn(Intl, "DateTimeFormat");
    for (let i = 0; i < 50; i += 1) all();
    expect(made).not.toHaveBeenCalled();
  });

  it("writes distances as a reader says them", () => {
    expect(formatKm(0.4, "en")).toBeNull();
    expect(formatKm(3.24, "en")).toBe("3.2");
    expect(formatKm(48.6, "en")).toBe("49");
  });
});
