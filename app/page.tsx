export default function Home() {
  return (
    <main>
      <h1>Personal Data Service</h1>
      <p>
        Keep favorites in collections, plus todos, goals, habit streaks, messages, follows, channels and a profile — over
        a versioned JSON API at <code>/api/v1</code> and as tools for an assistant at <code>/api/agent</code>.
      </p>
    </main>
  );
}
