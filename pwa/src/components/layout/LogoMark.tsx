import { useId } from "react";
import { logoDrawing } from "./logo-drawing";

/**
 * The logo, drawn in the page rather than loaded as an <img> of an SVG file: a browser renders
 * an SVG image in a document of its own (its page, style, layout and a font lookup for the
 * text), main-thread time on a first visit for one small picture (decision 0018). Without `label` it
 * is decoration, hidden from screen readers.
 */
export function LogoMark({ size, label, className }: { size: number; label?: string; className?: string }) {
  // useId's characters are not all valid in a url(#…) reference.
  const gradient = `logo${useId().replace(/[^\w-]/g, "")}`;
  return (
    <svg
      viewBox="0 0 64 64"
      width={size}
      height={size}
      className={className}
      {...(label ? { role: "img", "aria-label": label } : { "aria-hidden": true })}
      dangerouslySetInnerHTML={{ __html: logoDrawing(gradient) }}
    />
  );
}
