/**
 * The page's one script tag. It lets the browser paint the splash in index.html first, then
 * runs the app (main.tsx). Without it, when the modules arrive quickly (a good network, or the
 * service worker's cache on every later visit) the browser evaluates ~350 KB of them before
 * its first paint and the voter looks at a blank page meanwhile. The page itself downloads
 * first, alone: its modules are requested after its first paint, all at once, from the list
 * the build puts in index.html (build/first-paint-page.ts says why), and evaluated in turn.
 */
function requestAppModules() {
  const list = document.querySelector<HTMLMetaElement>('meta[name="app-modules"]')?.content ?? "";
  for (const href of list.split(" ").filter(Boolean)) {
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.href = href;
    document.head.append(link);
  }
}

let started = false;
const startApp = () => {
  if (started) return;
  started = true;
  // React first (its own chunk, ~200 KB), the app in the task after: evaluated together they
  // would be the page's longest task. The app's modules download meanwhile; React's request is
  // under way already, so its entry in the list adds no second one.
  const react = import("react-dom/client");
  requestAppModules();
  void react.then(() => new Promise((resolve) => setTimeout(resolve, 0))).then(() => import("./main"));
};
// The task after the next frame is the one after the first paint.
requestAnimationFrame(() => setTimeout(startApp, 0));
// A tab opened in the background draws no frames until it is shown; it starts anyway.
setTimeout(startApp, 100);

// An ES module (index.html loads it as one), which TypeScript only knows from an export.
export {};
