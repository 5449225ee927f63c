/** CPU and memory of another process, read from /proc (Linux). */
import { readFileSync } from "node:fs";

const CLK_TCK = 100; // sysconf(_SC_CLK_TCK) on Linux x86-64/arm64

export interface ProcSample {
  at: number;
  cpuMs: number;
  rssMiB: number;
}

export function sampleProc(pid: number): ProcSample | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return { at: performance.now(), cpuMs, rssMiB: rssKb / 1024 };
  } catch {
    return null;
  }
}

/** Samples a process every `everyMs` until stopped; reports mean/peak CPU (% of one core) and peak RSS. */
export function watchProc(pid: number, everyMs = 500) {
  const first = sampleProc(pid);
  let last = first;
  let peakCpu = 0;
  let peakRss = first?.rssMiB ?? 0;
  const timer = setInterval(() => {
    const s = sampleProc(pid);
    if (!s || !last) return;
    peakCpu = Math.max(peakCpu, ((s.cpuMs - last.cpuMs) / (s.at - last.at)) * 100);
    peakRss = Math.max(peakRss, s.rssMiB);
    last = s;
  }, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      const end = sampleProc(pid) ?? last;
      const meanCpu = first && end ? ((end.cpuMs - first.cpuMs) / (end.at - first.at)) * 100 : NaN;
      return { meanCpuPct: meanCpu, peakCpuPct: peakCpu, peakRssMiB: Math.max(peakRss, end?.rssMiB ?? 0), endRssMiB: end?.rssMiB ?? NaN };
    },
  };
}
