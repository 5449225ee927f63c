import { APP_TITLE } from "@evoting/shared";
import { LogoMark } from "./LogoMark";

export function Logo() {
  return (
    <div className="flex items-center gap-3">
      <LogoMark size={36} label="CSC E-Voting logo" className="size-9" />
      <span className="text-lg font-bold tracking-tight text-slate-900">{APP_TITLE}</span>
    </div>
  );
}
