/**
 * Runs `run` now, every `everyMs` while the page is in view, and again as it comes back into view: for what a page
 * says or asks only while someone can see it. Answers the function that stops it.
 */
export function repeatWhileInView(run: () => void, everyMs: number): () => void {
  const tick = () => {
    if (document.visibilityState === 'visible') run();
  };
  tick();
  const timer = setInterval(tick, everyMs);
  document.addEventListener('visibilitychange', tick);
  return () => {
    clearInterval(timer);
    document.removeEventListener('visibilitychange', tick);
  };
}
