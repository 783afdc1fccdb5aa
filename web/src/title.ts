// The page's title and the top bar's heading: the game on the table (its
// display name), or both games in the lobby.
export function setTitle(title: string, heading: string): void {
  document.title = title;
  const a = document.querySelector<HTMLElement>(".top h1 a");
  if (a) a.textContent = heading;
}
