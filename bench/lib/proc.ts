/** CPU and memory of another process, read from /proc (Linux). */
import { readdirSync, readFileSync } from "node:fs";

const CLK_TCK = 100; // sysconf(_SC_CLK_TCK) on Linux x86-64/arm64

export interface ProcSample {
  at: number;
  cpuMs: number;
  rssMiB: number;
}

/** utime + stime of a /proc stat line (fields 14 and 15, after the parenthesised command name), in ms. */
function cpuMsOf(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

/** CPU so far of each thread of a process, by thread id (the main thread's id is the pid). */
function threadCpuMs(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        out.set(Number(tid), cpuMsOf(readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8")));
      } catch {
        // the thread ended meanwhile
      }
    }
  } catch {
    // the process ended
  }
  return out;
}

export function sampleProc(pid: number): ProcSample | null {
  try {
    const cpuMs = cpuMsOf(readFileSync(`/proc/${pid}/stat`, "utf8"));
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return { at: performance.now(), cpuMs, rssMiB: rssKb / 1024 };
  } catch {
    return null;
  }
}

/**
 * Samples a process every `everyMs` until stopped; reports mean/peak CPU (% of one core) and
 * peak RSS, and the mean CPU of its main thread and of its busiest other thread (for the
 * server: the event loop and the writer thread).
 */
export function watchProc(pid: number, everyMs = 500) {
  const firstThreads = threadCpuMs(pid);
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
      const elapsed = first && end ? end.at - first.at : NaN;
      const meanCpu = first && end ? ((end.cpuMs - first.cpuMs) / elapsed) * 100 : NaN;
      let mainThreadCpuPct = NaN;
      let otherThreadCpuPct = 0;
      for (const [tid, ms] of threadCpuMs(pid)) {
        const pct = ((ms - (firstThreads.get(tid) ?? 0)) / elapsed) * 100;
        if (tid === pid) mainThreadCpuPct = pct;
        else otherThreadCpuPct = Math.max(otherThreadCpuPct, pct);
      }
      return {
        meanCpuPct: meanCpu,
        peakCpuPct: peakCpu,
        peakRssMiB: Math.max(peakRss, end?.rssMiB ?? 0),
        endRssMiB: end?.rssMiB ?? NaN,
        mainThreadCpuPct,
        otherThreadCpuPct,
      };
    },
  };
}
