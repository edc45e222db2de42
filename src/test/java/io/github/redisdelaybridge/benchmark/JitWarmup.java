package io.github.redisdelaybridge.benchmark;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Warm-up for the precision scenarios: unrecorded steps at the measured rate until the JIT compiler has settled. The
 * benchmark JVM holds the Kafka broker, its clients, Camel, Lettuce and the load generator, so its compiler keeps working
 * long after a fixed warm-up: in a precision run started alone, 33 s of the 49 s after one 20 s warm-up step went to
 * compiling (one C2 thread at about two thirds of a core, on a 2-core machine), and every message due meanwhile paid for
 * it (p99 33-42 ms while it compiled 20-28 s a step, 19-24 ms once it compiled 2 s a step). A bridge that runs for days
 * reaches the settled state; that state is what the precision targets are about. Settled here means the compiler worked at
 * most a tenth of a step: a bridge alone in its JVM has far less code to compile than this JVM.
 *
 * <p>In the processes scenario the broker and the load generator are fresh JVMs of their own, compiling on the same two
 * cores: their compilers must have settled too (read with {@code jstat -compiler}). Counting this JVM's alone, that
 * scenario would measure after one warm-up step while the load generator's CPU is still falling step to step (47% then 28%,
 * the broker's 55% then 44%: docs/benchmark.md, "The JIT warm-up").
 */
final class JitWarmup {

    /** Settled: the compiler worked at most this share of a step. */
    static final double SETTLED_SHARE = 0.10;
    static final int MAX_STEPS = 8;

    interface Step<T> {
        T run() throws Exception;
    }

    /**
     * What a warm-up ended with: the steps it took and how long the compiler worked during the last one (this JVM's;
     * {@code alongside}: the other JVMs', e.g. "kafka 120 ms, load 80 ms", empty without them).
     */
    record Settled(int steps, long lastStepCompileMs, String alongside, boolean settled) {

        String describe() {
            return String.format("after %d warm-up step(s); JIT %d ms in the last%s%s", steps, lastStepCompileMs,
                    alongside.isEmpty() ? "" : " (" + alongside + ")", settled ? "" : " (not settled within " + MAX_STEPS + " steps)");
        }
    }

    private JitWarmup() {
    }

    /** Milliseconds the JIT compiler has worked since the JVM started, or -1 where the JVM does not say. */
    static long compileMillis() {
        CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        return compiler != null && compiler.isCompilationTimeMonitoringSupported() ? compiler.getTotalCompilationTime() : -1;
    }

    /**
     * Milliseconds the JIT compiler of another JVM on this machine has worked since it started (jstat's compiler time, in
     * hundredths of a second), or -1 where jstat cannot tell.
     */
    static long compileMillis(long pid) {
        try {
            Process jstat = new ProcessBuilder("jstat", "-compiler", Long.toString(pid)).redirectErrorStream(true).start();
            String out = new String(jstat.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!jstat.waitFor(10, TimeUnit.SECONDS) || jstat.exitValue() != 0) {
                return -1;
            }
            // "Compiled Failed Invalid   Time   FailedType FailedMethod" then the figures: Time is the fourth
            String[] lines = out.strip().split("\\R");
            String[] figures = lines[lines.length - 1].trim().split("\\s+");
            return Math.round(Double.parseDouble(figures[3]) * 1000);
        } catch (IOException | RuntimeException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** Runs {@code step} (unrecorded) until the compiler worked at most {@link #SETTLED_SHARE} of it, at most {@link #MAX_STEPS} times. */
    static <T> Settled untilSettled(String what, long stepMs, Step<T> step) throws Exception {
        return untilSettled(what, stepMs, List.of(), step);
    }

    /** The same, until the compilers of this JVM and of each JVM {@code alongside} worked at most that share of it. */
    static <T> Settled untilSettled(String what, long stepMs, List<CpuMeter.Process> alongside, Step<T> step) throws Exception {
        long compiled = 0;
        String others = "";
        for (int i = 1; i <= MAX_STEPS; i++) {
            long before = compileMillis();
            long[] othersBefore = alongside.stream().mapToLong(p -> compileMillis(p.pid())).toArray();
            T result = step.run();
            compiled = before < 0 ? 0 : compileMillis() - before;
            boolean settled = compiled <= SETTLED_SHARE * stepMs;
            List<String> described = new ArrayList<>();
            for (int j = 0; j < alongside.size(); j++) {
                long after = compileMillis(alongside.get(j).pid());
                if (othersBefore[j] < 0 || after < 0) {
                    described.add(alongside.get(j).name() + " unknown (jstat failed)"); // not waited for: no figure to wait on
                    continue;
                }
                long worked = after - othersBefore[j];
                settled &= worked <= SETTLED_SHARE * stepMs;
                described.add(alongside.get(j).name() + " " + worked + " ms");
            }
            others = String.join(", ", described);
            System.out.printf("(%s warm-up step %d, not recorded: JIT %d ms during it%s; %s)%n", what, i, compiled,
                    others.isEmpty() ? "" : " (" + others + ")", result);
            if (settled) {
                return new Settled(i, compiled, others, true);
            }
        }
        return new Settled(MAX_STEPS, compiled, others, false);
    }
}
