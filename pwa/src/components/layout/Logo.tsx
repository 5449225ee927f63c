import { APP_TITLE } from "@evoting/shared";

export function Logo() {
  return (
    <div className="flex items-center gap-3">
      <img src="/logo.svg" alt="CSC E-Voting logo" width={36} height={36} className="size-9" />
      <span className="text-lg font-bold tracking-tight text-slate-900">{APP_TITLE}</span>
    </div>
  );
}
