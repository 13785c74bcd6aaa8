/** The main thread's CPU ms (Linux /proc, 10 ms ticks), or null elsewhere. */
export function mainThreadCpuMs(): number | null;
/** process.cpuUsage() and the main thread's share. */
export function cpuNow(): NodeJS.CpuUsage & { main: number | null };
