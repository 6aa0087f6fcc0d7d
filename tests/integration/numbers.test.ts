import { describe, expect, it } from "vitest";
import { ngoSignUpSchema, donorSignUpSchema } from "#shared/forms/accounts.ts";
import { campaignSchema } from "#shared/forms/campaigns.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { nationalPhone, westernDigits, wholeRupees } from "#shared/numbers.ts";

/** Numbers as people in Pakistan type them (shared/numbers.ts): the same in the browser and on the server. */
describe("numbers as people type them", () => {
  it("reads Urdu and Arabic-Indic digits as 0–9", () => {
    expect(westernDigits("۰۱۲۳۴۵۶۷۸۹")).toBe("0123456789");
    expect(westernDigits("٠١٢٣٤٥٦٧٨٩")).toBe("0123456789");
    expect(westernDigits("Rs. ۵۰۰")).toBe("Rs. 500");
  });

  it("puts a phone number in national form, whatever the prefix and separators", () => {
    for (const typed of ["+92 321 1234567", "0092-321-1234567", "0321-1234567", "92 321 1234567", "(0321) 123 4567", "۰۳۲۱۱۲۳۴۵۶۷"]) {
      expect(nationalPhone(typed), typed).toBe("03211234567");
    }
    expect(nationalPhone("051-5551234")).toBe("0515551234");
    expect(nationalPhone("+92 51 5551234")).toBe("0515551234");
  });

  it("reads whole rupees with the currency, grouping, a trailing /- or zero paisas", () => {
    for (const typed of ["Rs. 1,000", "rs 1000", "PKR 1,000", "1,000/-", "1000.00", "۱,۰۰۰", "1 000"])
      expect(wholeRupees(typed), typed).toBe("1000");
    expect(wholeRupees("12.5")).toBe("12.5");
  });

  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [k, v] of Object.entries(fields)) data.set(k, v);
    return data;
  };
  const person = { firstName: "Hina", lastName: "Q", address: "Saddar", email: "hina@example.pk", password: "Hina-gives-2024" };
  const ngo = { name: "Roshni", address: "Blue Area", registrationNumber: "R-1", email: "ngo@example.pk", password: "Roshni-2024!" };

  it("stores one canonical contact: a donor's mobile, an NGO's mobile or landline", () => {
    const donor = parseWithZod(form({ ...person, contactNumber: "+92 321 1234567" }), { schema: donorSignUpSchema });
    expect(donor.status === "success" && donor.value.contactNumber).toBe("03211234567");
    const landline = parseWithZod(form({ ...ngo, contactNumber: "051-5551234" }), { schema: ngoSignUpSchema });
    expect(landline.status === "success" && landline.value.contactNumber).toBe("0515551234");
    const karachi = parseWithZod(form({ ...ngo, contactNumber: "021-3555 1234" }), { schema: ngoSignUpSchema });
    expect(karachi.status === "success" && karachi.value.contactNumber).toBe("02135551234");
    // A donor is reached on a mobile; a landline is an NGO's office.
    const donorLandline = parseWithZod(form({ ...person, contactNumber: "051-5551234" }), { schema: donorSignUpSchema });
    expect(donorLandline.status).toBe("error");
    const short = parseWithZod(form({ ...ngo, contactNumber: "051-555" }), { schema: ngoSignUpSchema });
    expect(short.status).toBe("error");
  });

  it("reads a campaign's target as typed", () => {
    const parsed = parseWithZod(form({ targetAmount: "Rs. ۵۰,۰۰۰" }), { schema: campaignSchema });
    expect(parsed.payload.targetAmount).toBe("Rs. ۵۰,۰۰۰");
    const errors = parsed.status === "error" ? (parsed.error?.targetAmount ?? []) : [];
    expect(errors).toEqual([]);
  });
});
