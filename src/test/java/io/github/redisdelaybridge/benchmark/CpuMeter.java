package io.github.redisdelaybridge.benchmark;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * CPU used during one measurement, as a share of one core: by this JVM (bridge, Kafka broker, load
 * generator), by the benchmark's redis-server (or the masters of its Redis Cluster, summed), by the processes
 * the setting runs alongside (in the processes scenario, the broker and the load generator, each named; this
 * JVM then holds the bridge), and by everything else on the machine (other engineers' builds): the last tells
 * how noisy a figure is.
 */
final class CpuMeter {

    private static final double TICK_MS = 10.0; // USER_HZ = 100 on Linux

    /** A process measured by name, beside this JVM and Redis. */
    record Process(String name, long pid) {
    }

    private final long[] redisPids;
    private final List<Process> alongside;
    private final long[] startAlongsideTicks;
    private final long startNanos;
    private final long startJvmNanos;
    private final long startRedisTicks;
    private final long[] startMachine;

    private CpuMeter(List<Process> alongside, long... redisPids) {
        this.redisPids = redisPids.clone();
        this.alongside = List.copyOf(alongside);
        this.startAlongsideTicks = alongside.stream().mapToLong(p -> processTicks(p.pid())).toArray();
        this.startNanos = System.nanoTime();
        this.startJvmNanos = jvmCpuNanos();
        this.startRedisTicks = processTicks(this.redisPids);
        this.startMachine = machineTicks();
    }

    /** Measures from now; {@code redisPids} are the Redis processes (none or -1: Redis is not ours to measure). */
    static CpuMeter start(long... redisPids) {
        return new CpuMeter(List.of(), redisPids);
    }

    /** The same, also measuring each process {@code alongside} by its name. */
    static CpuMeter start(List<Process> alongside, long... redisPids) {
        return new CpuMeter(alongside, redisPids);
    }

    /** CPU used by processes other than this JVM and the benchmark's redis-server, in % of one core, over the window. */
    static double othersPercent(long redisPid, long windowMs) throws InterruptedException {
        CpuMeter meter = new CpuMeter(List.of(), redisPid);
        Thread.sleep(windowMs);
        return meter.othersPercent();
    }

    private double othersPercent() {
        double wallMs = (System.nanoTime() - startNanos) / 1e6;
        double jvmMs = (jvmCpuNanos() - startJvmNanos) / 1e6;
        double redisMs = measuresRedis() ? (processTicks(redisPids) - startRedisTicks) * TICK_MS : 0;
        double busyMs = (machineTicks()[0] - startMachine[0]) * TICK_MS;
        return 100 * Math.max(0, busyMs - jvmMs - redisMs) / wallMs;
    }

    /** "cpu: jvm 150%, redis 60%, others 10% of 200%"; with processes alongside "cpu: jvm 80%, kafka 40%, load 20%, redis ...". */
    String stop() {
        double wallMs = (System.nanoTime() - startNanos) / 1e6;
        double jvmMs = (jvmCpuNanos() - startJvmNanos) / 1e6;
        double redisMs = measuresRedis() ? (processTicks(redisPids) - startRedisTicks) * TICK_MS : -1;
        StringBuilder named = new StringBuilder();
        double alongsideMs = 0;
        for (int i = 0; i < alongside.size(); i++) {
            double ms = (processTicks(alongside.get(i).pid()) - startAlongsideTicks[i]) * TICK_MS;
            alongsideMs += ms;
            named.append(String.format("%s %.0f%%, ", alongside.get(i).name(), 100 * ms / wallMs));
        }
        long[] machine = machineTicks();
        double busyMs = (machine[0] - startMachine[0]) * TICK_MS;
        double others = Math.max(0, busyMs - jvmMs - alongsideMs - Math.max(0, redisMs));
        int cores = Runtime.getRuntime().availableProcessors();
        return String.format("cpu: jvm %.0f%%, %sredis %s, others %.0f%% of %d00%%", 100 * jvmMs / wallMs, named,
                redisMs < 0 ? "n/a" : String.format("%.0f%%", 100 * redisMs / wallMs), 100 * others / wallMs, cores);
    }

    private boolean measuresRedis() {
        for (long pid : redisPids) {
            if (pid > 0) {
                return true;
            }
        }
        return false;
    }

    private static long processTicks(long[] pids) {
        long sum = 0;
        for (long pid : pids) {
            sum += processTicks(pid);
        }
        return sum;
    }

    private static long jvmCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return 0;
    }

    private static long processTicks(long pid) {
        if (pid <= 0) {
            return 0;
        }
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** {busy, total} jiffies of the whole machine. */
    private static long[] machineTicks() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < f.length; i++) {
                total += Long.parseLong(f[i]);
            }
            long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
            return new long[] {total - idle, total};
        } catch (IOException | RuntimeException e) {
            return new long[] {0, 0};
        }
    }
}
