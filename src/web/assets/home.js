// The home page's first step, run before the page is drawn: a tab that holds
// a session token goes to its portfolio, the signed-in home. (A classic
// script from this origin, as the CSP allows; no inline code.)
try {
  if (sessionStorage.getItem("psx.token")) location.replace("/portfolio")
} catch {
  // Storage blocked: stay on the start page.
}
