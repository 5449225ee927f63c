/**
 * The logo's drawing, the one copy of it: LogoMark draws it in the app, and the build puts it
 * in index.html's splash (build/first-paint-page.ts). `gradient` is the id of its gradient,
 * which must be unique in the page.
 */
export function logoDrawing(gradient: string): string {
  return (
    `<defs><linearGradient id="${gradient}" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="#4f46e5"/><stop offset="1" stop-color="#7c3aed"/></linearGradient></defs>` +
    `<rect width="64" height="64" rx="14" fill="url(#${gradient})"/>` +
    `<rect x="14" y="30" width="36" height="22" rx="4" fill="#ffffff"/>` +
    `<rect x="22" y="30" width="20" height="3" fill="#c7d2fe"/>` +
    `<path d="M24 12h16a2 2 0 0 1 2 2v18H22V14a2 2 0 0 1 2-2z" fill="#e0e7ff"/>` +
    `<path d="M26.5 22.5l4 4 7.5-8" fill="none" stroke="#16a34a" stroke-width="3.2" stroke-linecap="round" stroke-linejoin="round"/>` +
    `<text x="32" y="46.5" text-anchor="middle" font-family="system-ui, sans-serif" font-size="10" font-weight="800" fill="#4338ca">CSC</text>`
  );
}

/** The splash's copy: a whole <svg> element, decoration beside the app's name. */
export function logoSvg(size: number, className: string, gradient: string): string {
  return `<svg viewBox="0 0 64 64" width="${size}" height="${size}" class="${className}" aria-hidden="true">${logoDrawing(gradient)}</svg>`;
}
