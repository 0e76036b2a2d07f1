/**
 * Shown while a page's or a tool's chunk loads (the first visit to a route; later navigations keep the
 * old page until the new one is ready). While it shows, the footer is not displayed (styles.css,
 * `.page-loading`), so nothing on screen moves when the page arrives: the page appears, and the footer
 * with it, below it. (A footer pushed down by the arrival of a tool was a layout shift of 0.72.)
 */
export function PageLoading() {
  return <p className="page loading page-loading">Loading…</p>;
}
