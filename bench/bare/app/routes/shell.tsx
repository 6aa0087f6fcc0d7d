/** The bare shell: a heading, a paragraph and a link, hydrated by React Router like every page of the app. */
export default function Shell() {
  return (
    <main>
      <title>Bare shell</title>
      <h1>One roof for Pakistan&apos;s NGOs, donors and riders</h1>
      <p>
        A React Router page with nothing of the app: no styling, no strings, no session. The bench measures the app&apos;s pages against it.
      </p>
      <a href="/rows">Campaigns</a>
    </main>
  );
}
