import { useLoaderData } from "react-router";
import { DONATE_PICKER_PAGE_SIZE } from "#shared/constants.ts";

const rupees = new Intl.NumberFormat("en-PK");
const CITIES = ["Karachi", "Lahore", "Islamabad", "Peshawar", "Quetta", "Multan"];

/** As many campaigns as the donor's picker (/donate1) shows on a page, made in memory: no database, no session. */
export function loader() {
  return {
    rows: Array.from({ length: DONATE_PICKER_PAGE_SIZE }, (_, i) => ({
      slug: `campaign-${i + 1}`,
      title: `Campaign number ${i + 1} for the families of ${CITIES[i % CITIES.length]}`,
      ngo: `NGO ${i + 1}`,
      city: CITIES[i % CITIES.length],
      summary: "Warm meals, clean water and school books for the families who lost their homes to the floods.",
      goal: 500_000 + i * 25_000,
      collected: 120_000 + i * 40_000,
    })),
  };
}

/** The bare list page the throughput comparison runs against /donate1. */
export default function Rows() {
  const { rows } = useLoaderData<typeof loader>();
  return (
    <main>
      <title>Bare rows</title>
      <h1>Campaigns</h1>
      <ul>
        {rows.map((r) => (
          <li key={r.slug}>
            <h2>
              <a href={`/campaign/${r.slug}`}>{r.title}</a>
            </h2>
            <p>
              {r.ngo} · {r.city}
            </p>
            <p>{r.summary}</p>
            <progress max={r.goal} value={r.collected} />
            <p>
              Rs. {rupees.format(r.collected)} of Rs. {rupees.format(r.goal)}
            </p>
            <a href={`/donate2?campaign=${r.slug}`}>Donate now</a>
          </li>
        ))}
      </ul>
    </main>
  );
}
