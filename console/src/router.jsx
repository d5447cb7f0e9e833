// Paths to pages: the history API, no page reload. console/routes.json lists every path (nginx
// answers each with index.html, so a reload or a bookmark lands on the same page).
import { signal, useSignal } from "./state.js";

export { matchPath } from "./paths.js";

export const currentUrl = signal(new URL(location.href));

// `scroll`: a new page starts at its top; a change of the same page's query (a filter, a sort)
// leaves the person where they are.
export function navigate(to, { replace = false, scroll = true } = {}) {
  const url = new URL(to, location.origin);
  if (replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  currentUrl.set(url);
  if (scroll) window.scrollTo(0, 0);
}

addEventListener("popstate", () => currentUrl.set(new URL(location.href)));

export function useUrl() {
  return useSignal(currentUrl);
}

// A link that moves within the console; ctrl/cmd/middle click still open a new tab.
export function Link({ href, children, ...rest }) {
  const onClick = (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return (
    <a href={href} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}

// Reads and writes the query string, so filters and pages survive a reload and can be shared.
export function useQuery() {
  const url = useUrl();
  const params = Object.fromEntries(url.searchParams.entries());
  const setQuery = (changes, { replace = true, scroll = false } = {}) => {
    const next = new URL(url);
    for (const [name, value] of Object.entries(changes)) {
      if (value === undefined || value === null || value === "") next.searchParams.delete(name);
      else next.searchParams.set(name, value);
    }
    navigate(next.pathname + next.search, { replace, scroll });
  };
  return [params, setQuery];
}
