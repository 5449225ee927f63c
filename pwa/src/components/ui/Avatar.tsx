import { useState } from "react";
import { cx } from "../../lib/cx";

interface AvatarProps {
  src: string | null | undefined;
  name: string;
  className?: string;
  /** Inside a control already named by the candidate's name: hide from assistive tech. */
  decorative?: boolean;
}

/** A candidate's photo, or a placeholder avatar when there is none or it fails to load. */
export function Avatar({ src, name, className, decorative }: AvatarProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const showPhoto = Boolean(src) && failedSrc !== src;
  const sizing = cx("shrink-0 rounded-full object-cover", className ?? "size-10");
  if (showPhoto) {
    return <img src={src!} alt={decorative ? "" : name} loading="lazy" className={sizing} onError={() => setFailedSrc(src ?? null)} />;
  }
  return (
    <span
      role={decorative ? undefined : "img"}
      aria-label={decorative ? undefined : `${name} (no photo)`}
      aria-hidden={decorative || undefined}
      data-placeholder-avatar=""
      className={cx(sizing, "inline-flex items-center justify-center bg-slate-200 text-slate-500")}
    >
      <svg viewBox="0 0 24 24" aria-hidden="true" className="size-3/5 fill-current">
        <path d="M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9Zm0 2c-4.4 0-8 2.4-8 5.5V21h16v-1.5c0-3.1-3.6-5.5-8-5.5Z" />
      </svg>
    </span>
  );
}
