package io.github.redisdelaybridge.benchmark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Gives the benchmark's own redis-server processes real-time CPU priority (SCHED_FIFO 10, via chrt), as a
 * Redis on a host of its own would have.
 *
 * <p>Why: Redis, the broker, the bridge and the load generator share 2 cores here. At normal priority
 * Redis waits up to 40 ms for a CPU while busy JVM threads run, and every command in progress then is
 * stretched: the herd's SLOWLOG lists a plain {@code ZRANGEBYSCORE ... LIMIT} (microseconds of work) at
 * over 10 ms beside the claim and acknowledge scripts, with PING stalls of 30-40 ms in the same second.
 * SLOWLOG is meant to show long scripts (the failure of a peer that moves a whole herd in one call), not
 * the scheduler (docs/benchmark.md, "Redis at real-time priority"). {@code --redis-priority normal}
 * measures without it; a Redis given with {@code --redis} is never touched.
 */
final class RedisCpuPriority {

    static final int FIFO_PRIORITY = 10;

    private RedisCpuPriority() {
    }

    /** Raises every pid; returns how Redis runs, for the table's machine line. */
    static String raise(List<Long> pids) {
        for (long pid : pids) {
            String refused = chrt(pid);
            if (refused != null) {
                System.out.println("Redis keeps normal CPU priority: chrt refused (" + refused + ")");
                return "Redis at normal CPU priority (chrt refused)";
            }
        }
        return "Redis at real-time CPU priority (chrt SCHED_FIFO " + FIFO_PRIORITY + ")";
    }

    /** Null when done, else why not. */
    private static String chrt(long pid) {
        try {
            Process chrt = new ProcessBuilder("chrt", "-f", "-p", Integer.toString(FIFO_PRIORITY), Long.toString(pid))
                    .redirectErrorStream(true).start();
            String output = new String(chrt.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!chrt.waitFor(10, TimeUnit.SECONDS)) {
                chrt.destroyForcibly();
                return "chrt did not finish";
            }
            return chrt.exitValue() == 0 ? null : output;
        } catch (IOException e) {
            return String.valueOf(e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
